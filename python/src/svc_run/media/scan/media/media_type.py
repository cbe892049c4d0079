"""Media types as the scanner records them: the essence, textual types, and modalities."""

from __future__ import annotations

from ...media_types import Modality
from ..json.js_text import js_trim

UNKNOWN_MEDIA_TYPE = "application/octet-stream"
"""The media type every file without a known one is recorded with."""

_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")


def _is_token(value: str, start: int, end: int) -> bool:
    if end <= start:
        return False
    return all(c in _TOKEN_CHARS for c in value[start:end])


def media_type_essence(value: object) -> str | None:
    """The essence ``type/subtype`` of a media type, lowercase, or ``None``.

    Parameters after ``;`` are ignored; spaces around the essence are allowed.
    """
    if not isinstance(value, str) or len(value) > 255:
        return None
    semicolon = value.find(";")
    end = len(value) if semicolon < 0 else semicolon
    start = 0
    stop = end
    while start < stop and value[start] == " ":
        start += 1
    while stop > start and value[stop - 1] == " ":
        stop -= 1
    slash = value.find("/", start)
    if slash < 0 or slash >= stop:
        return None
    if not _is_token(value, start, slash) or not _is_token(value, slash + 1, stop):
        return None
    return value[start:stop].lower()


def media_type_parameters(value: str) -> dict[str, str]:
    """The parameters of a media type: names lowercase, values unquoted; the first of a name wins."""
    parameters: dict[str, str] = {}
    parts = value.split(";")
    for part in parts[1:]:
        equals = part.find("=")
        if equals < 0:
            continue
        name = js_trim(part[:equals]).lower()
        parameter = js_trim(part[equals + 1 :])
        if len(parameter) >= 2 and parameter.startswith('"') and parameter.endswith('"'):
            parameter = parameter[1:-1]
        if name != "" and name not in parameters:
            parameters[name] = parameter
    return parameters


_TEXT_APPLICATION_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/x-ndjson",
        "application/jsonl",
        "application/ld+json",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/sql",
        "application/graphql",
        "application/x-sh",
        "application/csv",
    }
)


def is_textual_media_type(essence: str) -> bool:
    """True for ``text/*``, JSON, XML, YAML, JavaScript and ``+json``/``+xml`` application types."""
    if essence.startswith("text/"):
        return True
    if not essence.startswith("application/"):
        return False
    return essence in _TEXT_APPLICATION_TYPES or essence.endswith(("+json", "+xml"))


def modality_of(media_type: str) -> Modality:
    """``image/*``, ``audio/*``, ``video/*``; everything else is a ``document``."""
    essence = media_type_essence(media_type) or ""
    if essence.startswith("image/"):
        return "image"
    if essence.startswith("audio/"):
        return "audio"
    if essence.startswith("video/"):
        return "video"
    return "document"
