"""What the scanner records about a found file: content type, modality, name, whether it is one.

The content type is the data: URL's, else the part's declared type, else the file name's
extension, else the bytes' signature, else the convention's fallback. Text up to 64 KiB stays
inline; text in a field that is not base64 is a file only with a textual type.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...media_types import TEXT_INLINE_LIMIT, Modality
from ..media.extension_media_type import media_type_of_file_name
from ..media.media_type import UNKNOWN_MEDIA_TYPE, is_textual_media_type, media_type_essence, modality_of
from ..media.pcm_content_type import recorded_content_type
from ..media.sniff_media_type import sniff_media_type
from ..recognizers.recognizer import PartMatch
from ..valid_file_name import valid_file_name
from .found_payload import FoundPayload


@dataclass(frozen=True)
class FileFacts:
    """The recorded facts of a file."""

    content_type: str
    modality: Modality
    textual: bool
    name: str | None = None


NO_MATCH = PartMatch(form="", holder_path=(), field="", encoding="data-url")
"""The facts of a whole data: URL string come from the URL alone."""


def _content_type_of(media_type: str | None) -> str | None:
    return None if media_type is None else recorded_content_type(media_type)


def file_facts(match: PartMatch, payload: FoundPayload) -> FileFacts | None:
    """The facts of the file ``payload`` holds in a part matched as ``match``, or ``None``."""
    name = valid_file_name(match.name)
    if name is None:
        name = valid_file_name(payload.data_url_name)
    content_type = (
        _content_type_of(payload.data_url_type)
        or _content_type_of(match.media_type)
        or _content_type_of(media_type_of_file_name(name))
        or (None if payload.head is None else sniff_media_type(payload.head))
        or _content_type_of(match.fallback_media_type)
        or UNKNOWN_MEDIA_TYPE
    )
    essence = media_type_essence(content_type) or UNKNOWN_MEDIA_TYPE
    textual = is_textual_media_type(essence)
    if payload.plain_text and not textual:
        return None
    if textual and payload.size <= TEXT_INLINE_LIMIT:
        return None
    if essence == UNKNOWN_MEDIA_TYPE:
        modality: Modality = match.modality or "document"
    else:
        modality = modality_of(essence)
    return FileFacts(content_type, modality, textual, name)
