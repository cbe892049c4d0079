"""``data:`` URLs (RFC 2397) as the scanner reads them.

Only the header is parsed; the data stays a range of the original text. A data: URL counts as a
file only when it declares a media type (``data:,text`` does not).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..json.js_text import js_trim, utf8
from .media_type import media_type_essence, media_type_parameters

_MAX_HEADER_UNITS = 1024


@dataclass(frozen=True)
class DataUrlHeader:
    """The parsed header of a data: URL."""

    media_type: str
    """The declared media type with its parameters, as written (without ``;base64``)."""
    base64: bool
    """Whether the data is base64; otherwise it is percent-encoded."""
    data_start: int
    """Index of the first data character (just after the comma)."""
    name: str | None = None
    """A ``name`` or ``filename`` parameter, percent-decoded, when present."""


def starts_with_data_scheme(text: str, start: int) -> bool:
    """True when ``text`` has ``data:`` (ASCII letters in any case) at ``start``."""
    # No character but an ASCII letter lowers to an ASCII d, a or t.
    head = text[start : start + 5]
    return len(head) == 5 and head[4] == ":" and head[:4].lower() == "data"


def decode_uri_component(text: str) -> str | None:
    """JavaScript's ``decodeURIComponent``: ``None`` where it throws (bad ``%`` or UTF-8)."""
    if "%" not in text:
        return text
    out: list[str] = []
    i = 0
    length = len(text)
    while i < length:
        percent = text.find("%", i)
        if percent < 0:
            out.append(text[i:])
            break
        out.append(text[i:percent])
        run = bytearray()
        j = percent
        while j < length and text[j] == "%":
            pair = text[j + 1 : j + 3]
            if len(pair) != 2 or not all(c in "0123456789abcdefABCDEF" for c in pair):
                return None
            run.append(int(pair, 16))
            j += 3
        try:
            out.append(run.decode("utf-8"))
        except UnicodeDecodeError:
            return None
        i = j
    return "".join(out)


def parse_data_url(text: str, start: int, end: int) -> DataUrlHeader | None:
    """Parses the data: URL ``text[start:end]``; ``None`` when it is not one or declares no type."""
    if not starts_with_data_scheme(text, start):
        return None
    comma = text.find(",", start + 5)
    if comma < 0 or comma >= end or comma - start > _MAX_HEADER_UNITS:
        return None
    header = text[start + 5 : comma]
    media_type = header
    base64 = False
    last_semicolon = header.rfind(";")
    if last_semicolon >= 0 and js_trim(header[last_semicolon + 1 :]).lower() == "base64":
        base64 = True
        media_type = header[:last_semicolon]
    if media_type_essence(media_type) is None:
        return None
    parameters = media_type_parameters(media_type)
    raw_name = parameters.get("name")
    if raw_name is None:
        raw_name = parameters.get("filename")
    name = None if raw_name is None else decode_uri_component(raw_name)
    return DataUrlHeader(media_type, base64, comma + 1, name)


def _hex_value(byte: int) -> int:
    if 48 <= byte <= 57:
        return byte - 48
    if 97 <= byte <= 102:
        return byte - 87
    if 65 <= byte <= 70:
        return byte - 55
    return -1


def percent_decode(text: str, start: int, end: int) -> bytes:
    """The bytes of percent-encoded data: ``%XX`` is a byte, other characters are UTF-8 encoded."""
    encoded = utf8(text[start:end])
    if b"%" not in encoded:
        return encoded
    out = bytearray()
    i = 0
    length = len(encoded)
    while i < length:
        byte = encoded[i]
        if byte == 37 and i + 2 < length:
            high = _hex_value(encoded[i + 1])
            low = _hex_value(encoded[i + 2])
            if high >= 0 and low >= 0:
                out.append(high * 16 + low)
                i += 3
                continue
        out.append(byte)
        i += 1
    return bytes(out)
