"""UTF-8 helpers for text files and large values.

Digests without encoding a long text whole, and the UTF-8-safe prefix kept inline when text
uploads.
"""

from __future__ import annotations

import codecs
import hashlib

from ..json.js_text import utf8, utf8_length

_CHUNK_UNITS = 1024 * 1024


def digest_utf8(text: str) -> tuple[str, int]:
    """SHA-256 (hex) and size of the UTF-8 encoding of ``text`` (lone surrogates as U+FFFD)."""
    digest = hashlib.sha256()
    if len(text) <= _CHUNK_UNITS:
        encoded = utf8(text)
        digest.update(encoded)
        return digest.hexdigest(), len(encoded)
    size = 0
    for position in range(0, len(text), _CHUNK_UNITS):
        encoded = utf8(text[position : position + _CHUNK_UNITS])
        size += len(encoded)
        digest.update(encoded)
    return digest.hexdigest(), size


def utf8_prefix(text: str, max_bytes: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding is at most ``max_bytes`` bytes."""
    if len(text) * 4 <= max_bytes:
        return text
    candidate = text[:max_bytes]
    encoded = utf8(candidate)
    if len(encoded) <= max_bytes:
        return candidate
    decoder = codecs.getincrementaldecoder("utf-8")()
    whole = decoder.decode(encoded[:max_bytes], final=False)
    return text[: len(whole)]


def utf8_size(text: str) -> int:
    """Bytes of the UTF-8 encoding of ``text``."""
    return utf8_length(text)
