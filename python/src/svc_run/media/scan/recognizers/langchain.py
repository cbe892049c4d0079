"""LangChain standard content blocks (v0.3 data blocks and v1 blocks).

``{type, "source_type": "base64", "data", "mime_type"}`` and ``{type, "base64", "mime_type"}`` for
``image``, ``audio``, ``video`` and ``file``: the byte field is removed and ``sha256``/``size``
added. The name is ``filename``, ``name`` or ``title``, or the same in ``metadata``.
"""

from __future__ import annotations

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
    modality_name,
)

_TYPES = frozenset({"image", "audio", "video", "file"})


def _media_type_of(reader: NodeReader[N], part: N) -> str | None:
    value = member_string(reader, part, "mime_type")
    return value if value is not None else member_string(reader, part, "mimeType")


def _name_of(reader: NodeReader[N], part: N) -> str | None:
    for holder in (part, member_object(reader, part, "metadata")):
        if holder is None:
            continue
        for key in ("filename", "name", "title"):
            name = member_string(reader, holder, key)
            if name is not None:
                return name
    return None


def _byte_field(reader: NodeReader[N], part: N, type_: str | None) -> str | None:
    if type_ is None or type_ not in _TYPES:
        return None
    if member_string(reader, part, "source_type") == "base64":
        return "data"
    if member_string(reader, part, "mime_type") is not None:
        return "base64"
    return None


class LangChain(Recognizer):
    """LangChain standard content blocks."""

    convention = "LangChain standard content blocks (@langchain/core, v0.3 data blocks and v1 blocks)"
    types = ("image", "audio", "video", "file")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        field = _byte_field(reader, part, type_)
        if field is None or not has_string(reader, part, field):
            return None
        return PartMatch(
            f"langchain.{type_}",
            (),
            field,
            "base64",
            media_type=_media_type_of(reader, part),
            modality="document" if type_ == "file" else modality_name(type_),
            name=_name_of(reader, part),
        )

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        field = _byte_field(reader, part, type_)
        if field is None or not is_digest_at(reader, part, (), field):
            return None
        return DigestMatch(f"langchain.{type_}", (), field, "base64", media_type=_media_type_of(reader, part))


LANGCHAIN = LangChain()
