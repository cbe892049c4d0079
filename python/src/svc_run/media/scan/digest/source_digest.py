"""SHA-256 and size of a file source held in memory, computed the way the uploader reads it."""

from __future__ import annotations

import hashlib

from ...media_types import Base64Source, BytesSource, FileSource, Utf8Source
from .base64_digest import digest_base64
from .utf8_text import digest_utf8


def digest_source(source: FileSource) -> tuple[str, int] | None:
    """The SHA-256 (hex) and size of ``source``; ``None`` for a path, or base64 that does not decode."""
    if isinstance(source, BytesSource):
        return hashlib.sha256(source.data).hexdigest(), len(source.data)
    if isinstance(source, Utf8Source):
        return digest_utf8(source.text)
    if isinstance(source, Base64Source):
        digest = digest_base64(source.text, source.start, source.end)
        return None if digest is None else (digest.sha256, digest.size)
    return None
