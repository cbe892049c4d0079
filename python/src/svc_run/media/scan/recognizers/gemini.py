"""Gemini content parts (``Part.inlineData``; the REST API's snake-case ``inline_data``).

- ``{"inlineData": {"mimeType", "data", "displayName"?}}``: ``data`` removed, ``sha256``/``size``
  added in ``inlineData``; the name is ``displayName``. ``fileData`` is a reference.
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

_SPELLINGS = (
    ("inlineData", "mimeType", "displayName"),
    ("inline_data", "mime_type", "display_name"),
)


class Gemini(Recognizer):
    """Gemini inline data parts."""

    convention = "Gemini (@google/genai Part.inlineData; REST inline_data)"
    types = ()
    untyped_keys = ("inlineData", "inline_data")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        for holder, mime_type, name in _SPELLINGS:
            blob = member_object(reader, part, holder)
            if blob is None or not has_string(reader, blob, "data"):
                continue
            return PartMatch(
                "gemini.inline_data",
                (holder,),
                "data",
                "base64",
                media_type=member_string(reader, blob, mime_type),
                name=member_string(reader, blob, name),
            )
        return None

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        for holder, mime_type, _name in _SPELLINGS:
            if not is_digest_at(reader, part, (holder,), "data"):
                continue
            blob = member_object(reader, part, holder)
            return DigestMatch(
                "gemini.inline_data",
                (holder,),
                "data",
                "base64",
                media_type=None if blob is None else member_string(reader, blob, mime_type),
            )
        return None


GEMINI = Gemini()
