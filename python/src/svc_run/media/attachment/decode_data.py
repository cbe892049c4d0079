"""Decoding the ``data`` of an attachment or a recorded file.

Bytes as given, a base64 string (standard or URL-safe, padding optional, ASCII white space
ignored) or a ``data:`` URL declaring a media type (base64 or percent-encoded), refusing anything
decoding to more than the limit before decoding it.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from typing import Literal

from ..scan.media.data_url import parse_data_url, percent_decode, starts_with_data_scheme

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]*={0,2}")
_WHITESPACE = re.compile(r"[\t\n\f\r ]+")
_URL_SAFE = bytes.maketrans(b"-_", b"+/")


@dataclass(frozen=True)
class DecodedData:
    """Decoded data, with the media type a ``data:`` URL declared."""

    data: bytes
    declared_type: str | None


@dataclass(frozen=True)
class NotData:
    """Why data could not be decoded."""

    problem: Literal["not-data", "too-large"]


def _decode_base64(text: str, max_bytes: float) -> DecodedData | NotData:
    compact = _WHITESPACE.sub("", text)
    if _BASE64.fullmatch(compact) is None:
        return NotData("not-data")
    unpadded = compact.rstrip("=")
    if len(unpadded) % 4 == 1:
        return NotData("not-data")
    if (len(unpadded) * 3) // 4 > max_bytes:
        return NotData("too-large")
    encoded = unpadded.encode("ascii").translate(_URL_SAFE)
    encoded += b"=" * (-len(encoded) % 4)
    try:
        return DecodedData(binascii.a2b_base64(encoded), None)
    except binascii.Error:
        return NotData("not-data")


def _decode_data_url(text: str, max_bytes: float) -> DecodedData | NotData:
    header = parse_data_url(text, 0, len(text))
    if header is None:
        return NotData("not-data")
    declared = header.media_type.strip()
    if header.base64:
        decoded = _decode_base64(text[header.data_start :], max_bytes)
        return DecodedData(decoded.data, declared) if isinstance(decoded, DecodedData) else decoded
    if len(text) - header.data_start > max_bytes * 3:
        return NotData("too-large")
    data = percent_decode(text, header.data_start, len(text))
    return NotData("too-large") if len(data) > max_bytes else DecodedData(data, declared)


def decode_data(data: object, max_bytes: float) -> DecodedData | NotData:
    """Decodes ``data`` (bytes, base64 or a ``data:`` URL) of at most ``max_bytes`` decoded bytes."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        return NotData("too-large") if len(raw) > max_bytes else DecodedData(raw, None)
    if not isinstance(data, str):
        return NotData("not-data")
    if starts_with_data_scheme(data, 0):
        return _decode_data_url(data, max_bytes)
    return _decode_base64(data, max_bytes)
