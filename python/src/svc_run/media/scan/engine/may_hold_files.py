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

_MAYBE_FILE = re.compile(
    '"(?:' + "|".join(re.escape(word) for word in PART_WORDS) + r')["\\]|"[dD][aA][tT][aA]:|\\u00[0-7]'
)


def text_may_hold_files(text: str, start: int = 0, end: int | None = None) -> bool:
    """False only when the JSON text ``text[start:end]`` cannot hold a file the walk would find."""
    stop = len(text) if end is None else end
    return _MAYBE_FILE.search(text, start, stop) is not None
