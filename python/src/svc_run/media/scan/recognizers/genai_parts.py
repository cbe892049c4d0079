"""GenAI semantic-convention message parts (``BlobPart``, ``UriPart``, ``FilePart``).

- ``{"type": "blob", "mime_type"?, "modality", "content"}``: ``content`` is base64 (or, for a
  textual ``mime_type``, the text itself). Digest form: ``content`` removed, ``sha256`` and
  ``size`` added; text kept as a prefix stays in ``content``.
- ``{"type": "uri", "uri"}`` and ``{"type": "file", "file_id"}`` are references: never read, even
  when the ``uri`` is a data: URL.
"""

from __future__ import annotations

from .recognizer import (
    Absent,
    DigestMatch,
    N,
    NodeReader,
    PartMatch,
    Recognizer,
    has_string,
    is_digest_at,
    member_string,
    modality_name,
)


class GenAiParts(Recognizer):
    """GenAI semantic conventions: BlobPart, UriPart, FilePart (gen-ai-input-messages.json)."""

    convention = "GenAI semantic conventions: BlobPart, UriPart, FilePart (gen-ai-input-messages.json)"
    types = ("blob", "uri")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        if type_ != "blob" or isinstance(reader.member(part, "content"), Absent):
            return None
        return PartMatch(
            form="genai.blob",
            holder_path=(),
            field="content",
            encoding="blob-content",
            media_type=member_string(reader, part, "mime_type"),
            modality=modality_name(member_string(reader, part, "modality")),
            name=member_string(reader, part, "name"),
        )

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        if type_ != "blob" or not is_digest_at(reader, part, (), "content", True):
            return None
        return DigestMatch(
            form="genai.blob",
            holder_path=(),
            field="content",
            restore_as="base64",
            media_type=member_string(reader, part, "mime_type"),
            keeps_prefix=has_string(reader, part, "content"),
        )

    def reference_members(self, part: N, reader: NodeReader[N], type_: str | None) -> tuple[str, ...] | None:
        return ("uri",) if type_ == "uri" else None


GENAI_PARTS = GenAiParts()
