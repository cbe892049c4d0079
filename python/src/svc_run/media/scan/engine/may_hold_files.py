r"""The scanner's fast pre-check: proves, without tokenizing, that a JSON text holds no file.

The walk finds a file only in three places, at any depth of JSON encoded in JSON strings: an object
whose ``type`` is one of the recognized types; an object without ``type`` with one of the untyped
part keys; a string starting with ``data:``. Each of these is a word right after a ``"`` (a type
value or key is also right before one); inside encoded JSON the quotes are written ``\"``, which
still ends in ``"``. Decoding maps every escape to one character and keeps every other character,
so the letters of a word at any depth are the same consecutive letters here, unless a ``\u00XX``
escape wrote one of them. So a text without ``\u00`` followed by ``0``–``7``, and without any of
those words after a ``"``, holds no file.
"""

from __future__ import annotations

import re

from ..recognizers.all_recognizers import RECOGNIZED_TYPES, UNTYPED_PART_KEYS

PART_WORDS: tuple[str, ...] = tuple(dict.fromkeys((*RECOGNIZED_TYPES, *UNTYPED_PART_KEYS)))
"""The words that open a part: every type value and untyped member name."""

_WORD_CHARACTERS = re.compile("[A-Za-z_-]+")
assert all(_WORD_CHARACTERS.fullmatch(word) for word in PART_WORDS), "part words are ASCII letters, _ and -"

# The TypeScript pre-check's pattern is `"(?:WORDS)["\\]|"[dD][aA][tT][aA]:|\\u00[0-7]`. Python's
# regular expressions skip fast only to a literal first character, so the two alternatives starting
# with a quote are one pattern, and the third is looked for apart.
_QUOTED = re.compile('"(?:(?:' + "|".join(re.escape(word) for word in PART_WORDS) + r')["\\]|[dD][aA][tT][aA]:)')
_ASCII_ESCAPE = re.compile(r"\\u00[0-7]")


def text_may_hold_files(text: str, start: int = 0, end: int | None = None) -> bool:
    """False only when the JSON text ``text[start:end]`` cannot hold a file the walk would find.

    It says nothing about a whole value that is a data: URL, nor about the 1 MiB inline-value rule:
    callers check those themselves.
    """
    stop = len(text) if end is None else end
    if _QUOTED.search(text, start, stop) is not None:
        return True
    return text.find("\\u00", start, stop) >= 0 and _ASCII_ESCAPE.search(text, start, stop) is not None
