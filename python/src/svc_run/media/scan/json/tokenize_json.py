"""A position-tracking JSON tokenizer.

Structure is read token by token (whitespace and numbers by regular expressions, string ends with
``str.find``), no string contents are copied, and nodes go into a :class:`JsonTape`. It is strict
about structure (brackets, commas, colons, numbers, literals) and lenient inside strings: control
characters and escapes are checked only when a string is decoded (``json_string_text``).

It notes the spec's exemptions: nesting past :data:`MAX_NESTING` levels stops tokenizing, and an
integer literal past 2^53 is reported so the caller can keep the value as text. Lengths are counted
in code points (the TypeScript scanner counts UTF-16 code units: the two agree for text without
characters above U+FFFF, which base64 never holds).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .json_tape import ARRAY, LITERAL, NUMBER, OBJECT, STRING, JsonTape

MAX_NESTING = 32
"""Arrays and objects nested deeper than this are not read."""
LONG_STRING_UNITS = 16 * 1024
"""Strings longer than this without escapes may be read in a value too large to parse."""
PARSE_LIMIT_UNITS = 8 * 1024 * 1024
"""The most characters of a value's JSON outside its long strings that the scanner tokenizes."""

TokenizeFailure: TypeAlias = Literal["malformed", "too-deep", "too-large"]

_TWO_POW_53 = "9007199254740992"
_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Tokenized:
    """A tokenized text: its tape (root node 0) and whether an integer exceeds 2^53."""

    tape: JsonTape
    big_integer: bool


@dataclass(frozen=True)
class NotTokenized:
    """Why a text was not tokenized."""

    reason: TokenizeFailure


class _StopError(Exception):
    def __init__(self, reason: TokenizeFailure) -> None:
        super().__init__(reason)
        self.reason: TokenizeFailure = reason


class _Tokenizer:
    __slots__ = (
        "big_integer",
        "long_plain_units",
        "max_nesting",
        "next_backslash",
        "pos",
        "rest_limit",
        "tape",
        "text",
    )

    def __init__(self, text: str, max_nesting: int, rest_limit: float) -> None:
        self.text = text
        self.tape = JsonTape(text)
        self.max_nesting = max_nesting
        self.rest_limit = rest_limit
        self.pos = 0
        self.next_backslash = -2
        self.big_integer = False
        self.long_plain_units = 0

    def skip_space(self) -> str:
        """Skips white space; returns the character reached (``""`` at the end)."""
        match = _SPACE.match(self.text, self.pos)
        pos = match.end() if match is not None else self.pos
        self.pos = pos
        return self.text[pos] if pos < len(self.text) else ""

    def value(self, nesting: int, key_start: int, key_end: int) -> int:
        if self.pos - self.long_plain_units > self.rest_limit:
            raise _StopError("too-large")
        c = self.skip_space()
        if c == '"':
            node = self.string()
        elif c == "{":
            node = self.object(nesting + 1)
        elif c == "[":
            node = self.array(nesting + 1)
        elif c == "-" or "0" <= c <= "9":
            node = self.number()
        else:
            node = self.literal(c)
        tape = self.tape
        tape.nexts[node] = tape.size
        if key_start >= 0:
            tape.key_starts[node] = key_start
            tape.key_ends[node] = key_end
        return node

    def string_end(self) -> int:
        """The index of the closing quote of the string opening at ``pos``."""
        text = self.text
        q = text.find('"', self.pos + 1)
        while True:
            if q < 0:
                raise _StopError("malformed")
            b = q - 1
            while text[b] == "\\":
                b -= 1
            if ((q - 1 - b) & 1) == 0:
                return q
            q = text.find('"', q + 1)

    def string(self) -> int:
        start = self.pos
        tape = self.tape
        node = tape.add(STRING, start)
        q = self.string_end()
        nb = self.next_backslash
        if nb == -2 or (nb >= 0 and nb < start):
            nb = self.text.find("\\", start)
            self.next_backslash = nb
        if nb >= 0 and nb < q:
            tape.mark_escaped(node)
        elif q - start - 1 > LONG_STRING_UNITS:
            self.long_plain_units += q - start - 1
        self.pos = q + 1
        tape.ends[node] = q + 1
        return node

    def object(self, nesting: int) -> int:
        if nesting > self.max_nesting:
            raise _StopError("too-deep")
        tape = self.tape
        node = tape.add(OBJECT, self.pos)
        self.pos += 1
        c = self.skip_space()
        if c != "}":
            while True:
                if c != '"':
                    raise _StopError("malformed")
                key_start = self.pos
                q = self.string_end()
                self.pos = q + 1
                if self.skip_space() != ":":
                    raise _StopError("malformed")
                self.pos += 1
                self.value(nesting, key_start, q + 1)
                c = self.skip_space()
                if c == "}":
                    break
                if c != ",":
                    raise _StopError("malformed")
                self.pos += 1
                c = self.skip_space()
        self.pos += 1
        tape.ends[node] = self.pos
        return node

    def array(self, nesting: int) -> int:
        if nesting > self.max_nesting:
            raise _StopError("too-deep")
        tape = self.tape
        node = tape.add(ARRAY, self.pos)
        self.pos += 1
        c = self.skip_space()
        if c != "]":
            while True:
                self.value(nesting, -1, -1)
                c = self.skip_space()
                if c == "]":
                    break
                if c != ",":
                    raise _StopError("malformed")
                self.pos += 1
        self.pos += 1
        tape.ends[node] = self.pos
        return node

    def literal(self, c: str) -> int:
        text = self.text
        pos = self.pos
        if (c == "t" and text.startswith("true", pos)) or (c == "n" and text.startswith("null", pos)):
            self.pos = pos + 4
        elif c == "f" and text.startswith("false", pos):
            self.pos = pos + 5
        else:
            raise _StopError("malformed")
        node = self.tape.add(LITERAL, pos)
        self.tape.ends[node] = self.pos
        return node

    def number(self) -> int:
        text = self.text
        start = self.pos
        match = _NUMBER.match(text, start)
        if match is None:
            raise _StopError("malformed")
        end = match.end()
        if match.group(1) is None and match.group(2) is None:
            digits_start = start + 1 if text[start] == "-" else start
            digits = end - digits_start
            if digits >= 16 and (digits > 16 or text[digits_start:end] > _TWO_POW_53):
                self.big_integer = True
        self.pos = end
        node = self.tape.add(NUMBER, start)
        self.tape.ends[node] = end
        return node


def tokenize_json(text: str, nesting_used: int = 0) -> Tokenized | NotTokenized:
    """Tokenizes ``text`` as one JSON value (surrounding white space allowed). Never raises.

    A text longer than :data:`PARSE_LIMIT_UNITS` is read only while its characters outside long
    strings (over :data:`LONG_STRING_UNITS`, without escapes) stay within that limit.

    Args:
        text: The JSON text.
        nesting_used: Nesting already used by the text's context (JSON inside a JSON string).
    """
    rest_limit = PARSE_LIMIT_UNITS if len(text) > PARSE_LIMIT_UNITS else math.inf
    tokenizer = _Tokenizer(text, MAX_NESTING - nesting_used, rest_limit)
    try:
        tokenizer.value(0, -1, -1)
        tokenizer.skip_space()
    except _StopError as stop:
        return NotTokenized(stop.reason)
    except (IndexError, RecursionError):
        return NotTokenized("malformed")
    if tokenizer.pos != len(text):
        return NotTokenized("malformed")
    if len(text) - tokenizer.long_plain_units > rest_limit:
        return NotTokenized("too-large")
    return Tokenized(tokenizer.tape, tokenizer.big_integer)
