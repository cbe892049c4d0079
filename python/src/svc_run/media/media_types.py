"""The shapes and limits shared by the scanner, the uploader and the media reader.

Spec: "Digest-form file part", "Span attributes and event owned by the service", "Limits".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

Modality: TypeAlias = Literal["image", "audio", "video", "document"]
"""The kind of a file, as a digest-form part names it."""

BLOBS_ATTRIBUTE = "svc.blobs"
"""The span and log attribute listing a record's uploaded files."""
MAX_BLOB_ENTRIES = 64
"""Entries of ``svc.blobs`` per record."""
INLINE_VALUE_LIMIT = 1024 * 1024
"""A scanned attribute value longer than this (UTF-8 bytes) uploads whole, keeping a prefix."""
INLINE_PREFIX_BYTES = 16 * 1024
"""The UTF-8-safe prefix kept inline for a value or a text file that uploads."""
TEXT_INLINE_LIMIT = 64 * 1024
"""Text data URLs, and media in records that never upload, stay inline up to this size."""
SLICE_BYTES = 1024 * 1024
"""Large strings are decoded, hashed and uploaded in slices of this many bytes."""
MAX_FILE_BYTES = 1_000_000_000
"""The largest file the service stores."""
MAX_DATA_BYTES = 25 * 1024 * 1024
"""The largest ``data`` of an Attachment or a recorded file."""
UPLOAD_BUDGET_BYTES = 128 * 1024 * 1024
"""Bytes held in memory for uploads not yet done."""


@dataclass(frozen=True)
class BytesSource:
    """Decoded bytes held in memory."""

    data: bytes
    kind: Literal["bytes"] = "bytes"


@dataclass(frozen=True)
class Base64Source:
    """Base64 characters ``text[start:end]`` (no JSON escapes), decoded slice by slice."""

    text: str
    start: int
    end: int
    kind: Literal["base64"] = "base64"


@dataclass(frozen=True)
class Utf8Source:
    """Text recorded with a textual media type: the bytes are its UTF-8 encoding."""

    text: str
    kind: Literal["utf8"] = "utf8"


@dataclass(frozen=True)
class PathSource:
    """A file on disk; it must be unchanged (size and modification time) until it uploads."""

    path: str
    size: int
    mtime_ns: int
    kind: Literal["path"] = "path"


FileSource: TypeAlias = BytesSource | Base64Source | Utf8Source | PathSource
"""Where the bytes of a found file are, for hashing and upload without copying them whole."""


@dataclass(frozen=True)
class FoundFile:
    """A file the scanner found in a recorded value (or a helper attached to a record)."""

    key: str
    """The ``svc.blobs`` key of the place the file was found."""
    sha256: str
    size: int
    content_type: str
    """The media type recorded for the file (with ``rate``/``channels`` for raw PCM)."""
    modality: Modality
    source: FileSource
    name: str | None = None


FileDecision: TypeAlias = Literal["upload", "digest", "keep"]
"""What becomes of a found file: digest form and upload, digest form only, or kept as recorded."""

DecideFile: TypeAlias = Callable[[FoundFile], FileDecision]
"""Called by the scanner for each file it finds, in reading order."""
