"""Vercel AI SDK v5–v7 message parts (``ImagePart``, ``FilePart``, tool output content).

- ``{"type": "image", "image", "mediaType"?}`` and ``{"type": "file", "data", "mediaType",
  "filename"?}``: the bytes are bare base64, a data: URL, or an array of byte numbers.
- The v6 numbered-byte object (``{"0": 137, ...}``) is not read as a file.
- Restored bytes are bare base64 when the part declares ``mediaType``, otherwise a data: URL.
"""

from __future__ import annotations

from .recognizer import Absent, DigestMatch, N, NodeReader, PartMatch, Recognizer, is_digest_at, member_string

_TOOL_OUTPUT_TYPES = frozenset({"media", "image-data", "file-data"})


def _media_type_of(reader: NodeReader[N], part: N) -> str | None:
    for key in ("mediaType", "mimeType", "mime_type"):
        value = member_string(reader, part, key)
        if value is not None:
            return value
    return None


def _field_of(type_: str | None) -> str | None:
    if type_ == "image":
        return "image"
    if type_ == "file" or (type_ is not None and type_ in _TOOL_OUTPUT_TYPES):
        return "data"
    return None


class AiSdk(Recognizer):
    """AI SDK image and file parts."""

    convention = "Vercel AI SDK v5–v7 (ai ImagePart, FilePart; LanguageModelV2FilePart; tool output content)"
    types = ("image", "file", "media", "image-data", "file-data")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        field = _field_of(type_)
        if field is None:
            return None
        data = reader.member(part, field)
        if isinstance(data, Absent):
            return None
        if reader.kind(data) not in ("string", "array", "bytes"):
            return None
        return PartMatch(
            f"ai-sdk.{type_}",
            (),
            field,
            "binary",
            media_type=_media_type_of(reader, part),
            modality="image" if type_ in ("image", "image-data") else None,
            name=member_string(reader, part, "filename"),
        )

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        field = _field_of(type_)
        if field is None or not is_digest_at(reader, part, (), field):
            return None
        media_type = _media_type_of(reader, part)
        return DigestMatch(
            f"ai-sdk.{type_}",
            (),
            field,
            "data-url" if media_type is None else "base64",
            media_type=media_type,
        )


AI_SDK = AiSdk()
