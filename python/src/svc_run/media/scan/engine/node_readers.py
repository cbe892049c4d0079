"""The two node readers: over positioned JSON text, and over parsed Python values."""

from __future__ import annotations

from ..json.js_text import utf16_length
from ..json.json_string_text import decode_string_node, find_member
from ..json.json_tape import ARRAY, OBJECT, STRING, JsonTape
from ..recognizers.recognizer import ABSENT, Absent, NodeKind

MAX_SHORT_STRING = 1024
"""Strings longer than this (UTF-16 code units) are not read as names, types or formats."""


class TextNodeReader:
    """Reads the nodes of one JSON text."""

    __slots__ = ("_tape",)

    def __init__(self, tape: JsonTape) -> None:
        self._tape = tape

    def member(self, node: int, key: str) -> int | Absent:
        """Member ``key`` of object ``node``."""
        member = find_member(self._tape, node, key)
        return ABSENT if member < 0 else member

    def string(self, node: int) -> str | None:
        """The string at ``node`` when it is at most 1024 code units long."""
        tape = self._tape
        if tape.kind(node) != STRING:
            return None
        start = tape.starts[node]
        end = tape.ends[node]
        if end - start > MAX_SHORT_STRING + 2 or utf16_length(tape.text[start:end]) > MAX_SHORT_STRING + 2:
            return None
        value = decode_string_node(tape, node)
        if value is None or utf16_length(value) > MAX_SHORT_STRING:
            return None
        return value

    def kind(self, node: int) -> NodeKind:
        """What ``node`` is."""
        kind = self._tape.kind(node)
        if kind == OBJECT:
            return "object"
        if kind == ARRAY:
            return "array"
        if kind == STRING:
            return "string"
        return "other"


def is_plain_object(value: object) -> bool:
    """True for mappings of values: ``dict`` (the parsed form of a JSON object)."""
    return isinstance(value, dict)


class ValueReader:
    """Reads parsed Python values: ``dict``, ``list``/``tuple``, ``str``, ``bytes``, numbers."""

    __slots__ = ()

    def member(self, node: object, key: str) -> object:
        """Member ``key`` of ``node`` when it is a ``dict`` holding it, else ``ABSENT``."""
        if isinstance(node, dict) and key in node:
            value: object = node[key]
            return value
        return ABSENT

    def string(self, node: object) -> str | None:
        """``node`` when it is a string of at most 1024 UTF-16 code units."""
        if isinstance(node, str) and utf16_length(node) <= MAX_SHORT_STRING:
            return node
        return None

    def kind(self, node: object) -> NodeKind:
        """What ``node`` is."""
        if isinstance(node, str):
            return "string"
        if isinstance(node, (list, tuple)):
            return "array"
        if isinstance(node, (bytes, bytearray, memoryview)):
            return "bytes"
        if isinstance(node, dict):
            return "object"
        return "other"


VALUE_READER = ValueReader()
