"""JSON string literals inside a larger text.

Decoding a string node, mapping positions of the decoded contents back to the literal (to edit JSON
that is itself encoded in a JSON string), and finding members by name without decoding keys.
"""

from __future__ import annotations

import json

from .json_tape import OBJECT, JsonTape


def _reject_constant(name: str) -> object:
    raise ValueError(name)


def _decode_literal(literal: str) -> str | None:
    """The contents of a JSON string literal with escapes, or ``None`` when it is not valid."""
    try:
        value = json.loads(literal, parse_constant=_reject_constant)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def decode_string_node(tape: JsonTape, node: int) -> str | None:
    """The decoded contents of string ``node``, or ``None`` when the literal is not valid JSON."""
    start = tape.starts[node]
    end = tape.ends[node]
    if not tape.escaped(node):
        return tape.text[start + 1 : end - 1]
    return _decode_literal(tape.text[start:end])


def decode_key(tape: JsonTape, member: int) -> str | None:
    """The key of object member ``member``, decoded, or ``None`` when it is not valid."""
    start = tape.key_starts[member]
    end = tape.key_ends[member]
    text = tape.text
    if text.find("\\", start + 1, end - 1) >= 0:
        return _decode_literal(text[start:end])
    return text[start + 1 : end - 1]


def find_member(tape: JsonTape, node: int, name: str) -> int:
    """The first member of object ``node`` named ``name`` (compared as written), or -1."""
    if tape.kind(node) != OBJECT:
        return -1
    text = tape.text
    nexts = tape.nexts
    key_starts = tape.key_starts
    key_ends = tape.key_ends
    length = len(name) + 2
    end = nexts[node]
    member = node + 1
    while member < end:
        start = key_starts[member]
        if key_ends[member] - start == length and text.startswith(name, start + 1):
            return member
        member = nexts[member]
    return -1


def _hex_at(text: str, at: int) -> int:
    try:
        return int(text[at : at + 4], 16)
    except ValueError:
        return -1


class DecodedPositionMap:
    r"""Maps indexes of the decoded contents of a string literal to indexes in the literal's text.

    ``map`` must be called with non-decreasing indexes. Each escape decodes to one character, except
    an escaped surrogate pair (``\ud83d\ude00``), which decodes to one character from twelve.
    """

    __slots__ = ("_content_end", "_decoded", "_raw", "_text")

    def __init__(self, text: str, content_start: int, content_end: int) -> None:
        self._text = text
        self._raw = content_start
        self._content_end = content_end
        self._decoded = 0

    def map(self, index: int) -> int:
        """The index in the literal's text of the decoded character at ``index`` (or its end)."""
        text = self._text
        while self._decoded < index:
            backslash = text.find("\\", self._raw, self._content_end)
            plain_end = self._content_end if backslash < 0 else backslash
            plain = plain_end - self._raw
            if self._decoded + plain >= index:
                self._raw += index - self._decoded
                self._decoded = index
                break
            self._decoded += plain + 1
            self._raw = plain_end + self._escape_length(plain_end)
        return self._raw

    def _escape_length(self, at: int) -> int:
        text = self._text
        if text[at + 1 : at + 2] != "u":
            return 2
        high = _hex_at(text, at + 2)
        if 0xD800 <= high <= 0xDBFF and text[at + 6 : at + 8] == "\\u":
            low = _hex_at(text, at + 8)
            if 0xDC00 <= low <= 0xDFFF:
                return 12
        return 6
