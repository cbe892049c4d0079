"""Media types given for attachments and recorded files: ``type/subtype`` with parameters."""

from __future__ import annotations

import re

_TOKEN = r"[A-Za-z0-9!#$%&'*+.^_`|~-]+"
_MEDIA_TYPE = re.compile(rf"({_TOKEN})/({_TOKEN})((?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|\"[^\"\\]*\"))*)[ \t]*")
_SEPARATOR = re.compile(r"[ \t]*;[ \t]*")
MAX_MEDIA_TYPE_LENGTH = 256
"""The longest media type accepted."""


def normalize_media_type(value: object) -> str | None:
    """``value`` normalized (type and subtype in lowercase), or ``None`` when it is not a media type."""
    if not isinstance(value, str) or len(value) > MAX_MEDIA_TYPE_LENGTH:
        return None
    match = _MEDIA_TYPE.fullmatch(value.strip(" \t\n\r\f\v"))
    if match is None:
        return None
    parameters = _SEPARATOR.sub(";", match.group(3))
    return f"{match.group(1).lower()}/{match.group(2).lower()}{parameters}"
