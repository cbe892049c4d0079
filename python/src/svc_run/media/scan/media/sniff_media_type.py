"""Recognizes common file formats by their first bytes, for parts that declare no media type."""

from __future__ import annotations

_RIFF = b"RIFF"
_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "image/png"),
    (0, bytes([0xFF, 0xD8, 0xFF]), "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (8, b"WEBP", "image/webp"),
    (0, b"%PDF-", "application/pdf"),
    (8, b"WAVE", "audio/wav"),
    (0, b"ID3", "audio/mpeg"),
    (0, b"fLaC", "audio/flac"),
    (0, b"OggS", "audio/ogg"),
    (4, b"ftyp", "video/mp4"),
    (0, bytes([0x1A, 0x45, 0xDF, 0xA3]), "video/webm"),
)


def sniff_media_type(head: bytes) -> str | None:
    """The media type ``head`` (a file's first bytes; 16 are enough) starts like, or ``None``."""
    for offset, signature, media_type in _SIGNATURES:
        if offset == 8 and not head.startswith(_RIFF):
            continue
        if head.startswith(signature, offset):
            return media_type
    # MPEG audio frame sync (MP3) and ADTS (AAC) both start with 12 set bits.
    if len(head) >= 2 and head[0] == 0xFF and (head[1] & 0xF0) == 0xF0:
        return "audio/aac" if (head[1] & 0x06) == 0 else "audio/mpeg"
    return None
