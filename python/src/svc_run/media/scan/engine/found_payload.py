"""Reading the bytes of a byte field into a digest and a file source, one slice at a time."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ...media_types import Base64Source, BytesSource, FileSource, Utf8Source
from ..digest.base64_digest import HEAD_BYTES, digest_base64
from ..digest.utf8_text import digest_utf8
from ..media.data_url import parse_data_url, percent_decode, starts_with_data_scheme
from ..recognizers.recognizer import PayloadEncoding


@dataclass(frozen=True)
class FoundPayload:
    """The bytes found in a byte field."""

    sha256: str
    size: int
    source: FileSource
    head: bytes | None = None
    """The first bytes, for recognizing the format; ``None`` for plain text."""
    data_url_type: str | None = None
    """The media type a data: URL declared, with its parameters."""
    data_url_name: str | None = None
    """A ``name`` parameter of a data: URL."""
    plain_text: bool = False
    """The field held text itself (not base64): a file only when its media type is textual."""


def bytes_payload(data: bytes, data_url_type: str | None = None, data_url_name: str | None = None) -> FoundPayload:
    """A payload of bytes held in memory."""
    return FoundPayload(
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        source=BytesSource(data),
        head=data[:HEAD_BYTES],
        data_url_type=data_url_type,
        data_url_name=data_url_name,
    )


def read_string_payload(text: str, start: int, end: int, encoding: PayloadEncoding) -> FoundPayload | None:
    """Reads ``text[start:end]`` (a string's decoded contents) as ``encoding`` allows."""
    if start >= end:
        return None
    if starts_with_data_scheme(text, start):
        header = parse_data_url(text, start, end)
        if header is None:
            return None
        if header.base64:
            digest = digest_base64(text, header.data_start, end)
            if digest is None:
                return None
            return FoundPayload(
                sha256=digest.sha256,
                size=digest.size,
                source=Base64Source(text, header.data_start, end),
                head=digest.head,
                data_url_type=header.media_type,
                data_url_name=header.name,
            )
        data = percent_decode(text, header.data_start, end)
        if not data:
            return None
        return bytes_payload(data, header.media_type, header.name)
    if encoding == "data-url":
        return None
    digest = digest_base64(text, start, end)
    if digest is not None:
        return FoundPayload(
            sha256=digest.sha256, size=digest.size, source=Base64Source(text, start, end), head=digest.head
        )
    if encoding != "blob-content":
        return None
    contents = text if start == 0 and end == len(text) else text[start:end]
    sha256, size = digest_utf8(contents)
    return FoundPayload(sha256=sha256, size=size, source=Utf8Source(contents), plain_text=True)


def read_byte_array_text(text: str, start: int, end: int, count: int) -> bytes | None:
    """The bytes of the JSON array ``text[start:end]`` when every item is an integer 0–255."""
    if count == 0:
        return None
    items = text[start + 1 : end - 1].split(",")
    if len(items) != count:
        return None
    out = bytearray()
    for item in items:
        digits = item.strip(" \t\n\r")
        if not (1 <= len(digits) <= 3) or not digits.isascii() or not digits.isdigit():
            return None
        value = int(digits)
        if value > 255:
            return None
        out.append(value)
    return bytes(out)


def read_byte_array_value(items: Sequence[object]) -> bytes | None:
    """The bytes of a sequence when every item is an integer 0–255, otherwise ``None``."""
    if len(items) == 0:
        return None
    out = bytearray()
    for item in items:
        if isinstance(item, bool):
            return None
        value = int(item) if isinstance(item, float) and item.is_integer() else item
        if not isinstance(value, int) or value < 0 or value > 255:
            return None
        out.append(value)
    return bytes(out)
