"""Anthropic Messages content blocks (``ImageBlockParam``, ``DocumentBlockParam``, base64 sources).

- ``{"type": "image" | "document", "source": {"type": "base64", "media_type", "data"}}``: ``data``
  removed, ``sha256``/``size`` added in ``source``; a document's name is its ``title``.
- A document with a ``text`` source stays text; ``url`` and ``file`` sources are references.
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
)

_HOLDER = ("source",)


def _block_source(part: N, reader: NodeReader[N], type_: str | None) -> N | None:
    if type_ not in ("image", "document"):
        return None
    source = member_object(reader, part, "source")
    if source is None or member_string(reader, source, "type") != "base64":
        return None
    return source


class Anthropic(Recognizer):
    """Anthropic Messages image and document blocks."""

    convention = "Anthropic Messages (@anthropic-ai/sdk ImageBlockParam, DocumentBlockParam)"
    types = ("image", "document")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        source = _block_source(part, reader, type_)
        if source is None or not has_string(reader, source, "data"):
            return None
        image = type_ == "image"
        return PartMatch(
            "anthropic.image" if image else "anthropic.document",
            _HOLDER,
            "data",
            "base64",
            media_type=member_string(reader, source, "media_type"),
            modality="image" if image else "document",
            name=None if image else member_string(reader, part, "title"),
        )

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        source = _block_source(part, reader, type_)
        if source is None or not is_digest_at(reader, part, _HOLDER, "data"):
            return None
        return DigestMatch(
            "anthropic.image" if type_ == "image" else "anthropic.document",
            _HOLDER,
            "data",
            "base64",
            media_type=member_string(reader, source, "media_type"),
        )


ANTHROPIC = Anthropic()
