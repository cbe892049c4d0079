"""OpenAI Responses API input parts (``openai`` ``ResponseInputImage``, ``ResponseInputFile``).

- ``{"type": "input_image", "image_url": "data:…"}``: ``image_url`` removed, ``sha256``/``size``.
- ``{"type": "input_file", "file_data": "data:…", "filename"}``: ``file_id``/``file_url`` are
  references.
"""

from __future__ import annotations

from .recognizer import DigestMatch, N, NodeReader, PartMatch, Recognizer, has_string, is_digest_at, member_string


class OpenAiResponses(Recognizer):
    """OpenAI Responses API input parts."""

    convention = "OpenAI Responses API (openai ResponseInputImage, ResponseInputFile)"
    types = ("input_image", "input_file")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        if type_ == "input_image" and has_string(reader, part, "image_url"):
            return PartMatch("openai.input_image", (), "image_url", "data-url")
        if type_ == "input_file" and has_string(reader, part, "file_data"):
            return PartMatch(
                "openai.input_file", (), "file_data", "base64", name=member_string(reader, part, "filename")
            )
        return None

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        if type_ == "input_image" and is_digest_at(reader, part, (), "image_url"):
            return DigestMatch("openai.input_image", (), "image_url", "data-url")
        if type_ == "input_file" and is_digest_at(reader, part, (), "file_data"):
            return DigestMatch("openai.input_file", (), "file_data", "data-url")
        return None


OPENAI_RESPONSES = OpenAiResponses()
