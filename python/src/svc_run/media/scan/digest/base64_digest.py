"""SHA-256 and size of base64 text, read slice by slice from the text it sits in.

No decoded copy of the whole file is ever held. Standard and URL-safe alphabets are accepted, also
mixed, padding optional; anything else (white space, other characters, a misplaced ``=``) means the
text is not base64.
"""

from __future__ import annotations

import binascii
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from ...media_types import MAX_FILE_BYTES, SLICE_BYTES

BASE64_SLICE_UNITS = (SLICE_BYTES // 3) * 4
"""Base64 characters per slice: the largest multiple of 4 decoding to at most ``SLICE_BYTES``."""
HEAD_BYTES = 16
"""How many leading bytes :func:`digest_base64` keeps for recognizing the format."""

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_"
_URL_SAFE = bytes.maketrans(b"-_", b"+/")


@dataclass(frozen=True)
class Base64Digest:
    """The digest of a base64 range."""

    sha256: str
    size: int
    head: bytes
    """The first (up to :data:`HEAD_BYTES`) decoded bytes."""


def decoded_length(units: int) -> int:
    """Bytes that ``units`` base64 characters (without padding) decode to."""
    rest = units & 3
    return (units >> 2) * 3 + (0 if rest == 0 else rest - 1)


def base64_body_end(text: str, start: int, end: int) -> int:
    """The end of the base64 body of ``text[start:end]`` (before padding), or -1 when invalid."""
    body_end = end
    if body_end > start and text[body_end - 1] == "=":
        body_end -= 1
    if body_end > start and text[body_end - 1] == "=":
        body_end -= 1
    units = body_end - start
    if units == 0 or (units & 3) == 1:
        return -1
    if body_end != end and ((end - start) & 3) != 0:
        return -1
    return body_end


def decode_slice(text: str, start: int, end: int) -> bytes | None:
    """The bytes of base64 body characters ``text[start:end]`` (no padding), or ``None``."""
    try:
        encoded = text[start:end].encode("ascii")
    except UnicodeEncodeError:
        return None
    if encoded.translate(None, _ALPHABET):
        return None
    if b"-" in encoded or b"_" in encoded:
        encoded = encoded.translate(_URL_SAFE)
    missing = -len(encoded) & 3
    if missing:
        encoded += b"=" * missing
    try:
        return binascii.a2b_base64(encoded)
    except binascii.Error:
        return None


def digest_base64(text: str, start: int, end: int) -> Base64Digest | None:
    """Digest of base64 ``text[start:end]``; ``None`` when empty, not base64, or over 1 GB."""
    body_end = base64_body_end(text, start, end)
    if body_end < 0:
        return None
    size = decoded_length(body_end - start)
    if size > MAX_FILE_BYTES:
        return None
    digest = hashlib.sha256()
    head: bytes | None = None
    position = start
    while position < body_end:
        slice_end = min(body_end, position + BASE64_SLICE_UNITS)
        decoded = decode_slice(text, position, slice_end)
        if decoded is None or len(decoded) != decoded_length(slice_end - position):
            return None
        if head is None:
            head = decoded[:HEAD_BYTES]
        digest.update(decoded)
        position = slice_end
    return Base64Digest(digest.hexdigest(), size, head or b"")


def base64_slices(text: str, start: int, end: int) -> Iterator[bytes]:
    """The decoded bytes of base64 ``text[start:end]`` in slices of at most ``SLICE_BYTES``.

    Raises:
        ValueError: when the text turns out not to be base64.
    """
    body_end = base64_body_end(text, start, end)
    if body_end < 0:
        raise ValueError("The text is not base64.")
    position = start
    while position < body_end:
        slice_end = min(body_end, position + BASE64_SLICE_UNITS)
        decoded = decode_slice(text, position, slice_end)
        if decoded is None or len(decoded) != decoded_length(slice_end - position):
            raise ValueError("The text is not base64.")
        yield decoded
        position = slice_end
