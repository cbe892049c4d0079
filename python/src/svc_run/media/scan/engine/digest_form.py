"""The digest forms the scanner writes (spec "Digest-form file part").

Members replacing a part's byte field (``"sha256":"…","size":N``, after the kept text prefix when
there is one), and the GenAI blob part a whole data: URL string becomes.
"""

from __future__ import annotations

from ...media_types import INLINE_PREFIX_BYTES, Base64Source, BytesSource, FileSource, Utf8Source
from ..digest.base64_digest import decode_slice
from ..digest.utf8_text import utf8_prefix
from ..json.js_text import json_string
from .file_facts import FileFacts


def digest_members_text(sha256: str, size: int, prefix: str | None = None) -> str:
    """The byte field replaced by ``sha256`` and ``size`` (after ``content`` with the prefix)."""
    members = f'"sha256":"{sha256}","size":{size}'
    return members if prefix is None else f'"content":{json_string(prefix)},{members}'


def blob_part_value(facts: FileFacts, sha256: str, size: int, prefix: str | None = None) -> dict[str, object]:
    """The GenAI blob part a whole data: URL string becomes."""
    part: dict[str, object] = {"type": "blob", "mime_type": facts.content_type, "modality": facts.modality}
    if prefix is not None:
        part["content"] = prefix
    part["sha256"] = sha256
    part["size"] = size
    if facts.name is not None:
        part["name"] = facts.name
    return part


def blob_part_text(facts: FileFacts, sha256: str, size: int, prefix: str | None = None) -> str:
    """:func:`blob_part_value` as compact JSON text, as ``JSON.stringify`` writes it."""
    text = f'{{"type":"blob","mime_type":{json_string(facts.content_type)},"modality":{json_string(facts.modality)}'
    if prefix is not None:
        text += f',"content":{json_string(prefix)}'
    text += f',"sha256":"{sha256}","size":{size}'
    if facts.name is not None:
        text += f',"name":{json_string(facts.name)}'
    return text + "}"


def text_file_prefix(source: FileSource) -> str | None:
    """The UTF-8-safe prefix of the text a file holds (only about 16 KiB are decoded)."""
    # Decoding a few bytes more than the prefix keeps a character cut at the end out of it.
    decode_bytes = INLINE_PREFIX_BYTES + 4
    if isinstance(source, Utf8Source):
        return utf8_prefix(source.text, INLINE_PREFIX_BYTES)
    if isinstance(source, BytesSource):
        return utf8_prefix(source.data[:decode_bytes].decode("utf-8", "replace"), INLINE_PREFIX_BYTES)
    if isinstance(source, Base64Source):
        end = min(source.end, source.start + -(-decode_bytes // 3) * 4)
        body_end = end
        while body_end > source.start and source.text[body_end - 1] == "=":
            body_end -= 1
        head = decode_slice(source.text, source.start, body_end) or b""
        return utf8_prefix(head.decode("utf-8", "replace"), INLINE_PREFIX_BYTES)
    return None
