"""Amazon Bedrock Converse content blocks (``ImageBlock``, ``DocumentBlock``, ``VideoBlock``).

- ``{"image" | "document" | "video": {"format", "name"?, "source": {"bytes"}}}``: ``bytes`` removed,
  ``sha256``/``size`` added in ``source``; ``format`` gives the media type; a document's name is
  ``name``. ``source.s3Location`` is a reference.
"""

from __future__ import annotations

from typing import Literal

from ...media_types import Modality
from .recognizer import (
    DigestMatch,
    N,
    NodeReader,
    PartMatch,
    Recognizer,
    has_string,
    is_digest_at,
    member_object,
    member_string,
)

BEDROCK_FORMATS: dict[str, dict[str, str]] = {
    "image": {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"},
    "document": {
        "pdf": "application/pdf",
        "csv": "text/csv",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "html": "text/html",
        "txt": "text/plain",
        "md": "text/markdown",
    },
    "video": {
        "mkv": "video/x-matroska",
        "mov": "video/quicktime",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "flv": "video/x-flv",
        "mpeg": "video/mpeg",
        "mpg": "video/mpeg",
        "wmv": "video/x-ms-wmv",
        "three_gp": "video/3gpp",
    },
}
"""Media types of the Converse ``format`` values, per block kind."""

_KINDS: tuple[Literal["image", "document", "video"], ...] = ("image", "document", "video")


def _format_type(kind: str, fmt: str | None) -> str | None:
    return None if fmt is None else BEDROCK_FORMATS[kind].get(fmt)


class Bedrock(Recognizer):
    """Bedrock Converse blocks with ``source.bytes``."""

    convention = "Amazon Bedrock Converse (ContentBlock image/document/video with source.bytes)"
    types = ()
    untyped_keys = ("image", "document", "video")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        for kind in _KINDS:
            block = member_object(reader, part, kind)
            if block is None:
                continue
            source = member_object(reader, block, "source")
            if source is None or not has_string(reader, source, "bytes"):
                continue
            modality: Modality = kind
            return PartMatch(
                f"bedrock.{kind}",
                (kind, "source"),
                "bytes",
                "base64",
                media_type=_format_type(kind, member_string(reader, block, "format")),
                modality=modality,
                name=member_string(reader, block, "name") if kind == "document" else None,
            )
        return None

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        for kind in _KINDS:
            if not is_digest_at(reader, part, (kind, "source"), "bytes"):
                continue
            block = member_object(reader, part, kind)
            fmt = None if block is None else member_string(reader, block, "format")
            return DigestMatch(
                f"bedrock.{kind}", (kind, "source"), "bytes", "base64", media_type=_format_type(kind, fmt)
            )
        return None


BEDROCK = Bedrock()
