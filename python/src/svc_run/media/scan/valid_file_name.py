"""The spec's rule for file names in ``svc.blobs`` entries and digest-form parts.

Nonblank after trimming, at most 256 UTF-16 code units, well-formed Unicode, and no U+0000–U+001F or
U+007F.
"""

from __future__ import annotations

import re

from .json.js_text import is_well_formed, js_trim, utf16_length

MAX_FILE_NAME_UNITS = 256
"""The longest valid file name, in UTF-16 code units."""

_CONTROL = re.compile("[\x00-\x1f\x7f]")


def valid_file_name(name: object) -> str | None:
    """``name`` when it is a valid file name (returned as given, not trimmed), otherwise ``None``."""
    if not isinstance(name, str) or name == "" or utf16_length(name) > MAX_FILE_NAME_UNITS:
        return None
    if js_trim(name) == "":
        return None
    if _CONTROL.search(name) is not None:
        return None
    return name if is_well_formed(name) else None
