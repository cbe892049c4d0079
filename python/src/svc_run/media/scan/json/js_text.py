r"""How JavaScript sees text, where the scanner must agree with the TypeScript SDK byte for byte.

JavaScript strings are UTF-16: limits in "code units" count a character above U+FFFF twice, a lone
surrogate encodes to UTF-8 as U+FFFD, ``JSON.stringify`` escapes lone surrogates, and ``trim()``
and ``\s`` know their own set of white space. Python strings are code points; these helpers
bridge the two.
"""

from __future__ import annotations

import codecs
import json
import re

_FFFD_HANDLER = "svc_run.fffd"


def _replace_with_fffd(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return ("\ufffd" * (error.end - error.start), error.end)


codecs.register_error(_FFFD_HANDLER, _replace_with_fffd)

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
r"""The characters JavaScript's ``trim()`` removes and ``\s`` matches."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def utf8(text: str) -> bytes:
    """The UTF-8 encoding of ``text`` as JavaScript writes it (lone surrogates as U+FFFD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", _FFFD_HANDLER)


def utf8_length(text: str) -> int:
    """Bytes of ``utf8(text)``, without encoding an ASCII text."""
    if text.isascii():
        return len(text)
    return len(utf8(text))


def utf16_length(text: str) -> int:
    """The length JavaScript gives ``text``: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text) + len(_ASTRAL.findall(text))


def js_trim(text: str) -> str:
    """``text.trim()`` as JavaScript does it."""
    return text.strip(JS_WHITESPACE)


def js_has_non_space(text: str) -> bool:
    r"""``/\S/u.test(text)`` as JavaScript does it."""
    return any(c not in JS_WHITESPACE for c in text)


def is_well_formed(text: str) -> bool:
    """True when ``text`` holds no surrogate code point (a lone surrogate in UTF-16 terms)."""
    return text.isascii() or _SURROGATE.search(text) is None


def json_string(value: str) -> str:
    """``JSON.stringify(value)`` for a string: the quoted literal, lone surrogates escaped."""
    literal = json.dumps(value, ensure_ascii=False)
    if literal.isascii() or _SURROGATE.search(literal) is None:
        return literal
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", literal)


def json_string_contents(value: str) -> str:
    """``value`` escaped for the inside of a JSON string literal (without the quotes)."""
    return json_string(value)[1:-1]
