"""The 1 MiB inline-value rule (spec "Limits": inline value).

A scanned attribute value still longer than 1 MiB of UTF-8 after its media are replaced is offered
as one file keyed ``<attribute>#`` (``application/json`` when the value is JSON, else
``text/plain``); when it uploads (or takes digest form), the value keeps its UTF-8-safe 16 KiB
prefix.
"""

from __future__ import annotations

from ...media_types import INLINE_PREFIX_BYTES, INLINE_VALUE_LIMIT, MAX_FILE_BYTES, FoundFile, Utf8Source
from ..digest.utf8_text import digest_utf8, utf8_prefix
from ..json.js_text import utf8_length
from .ask_decide import AskFile


def may_exceed_inline_limit(value: str) -> bool:
    """False when ``value`` is surely within the limit: at most 4 bytes of UTF-8 per character."""
    return len(value) * 4 > INLINE_VALUE_LIMIT


def apply_inline_value_limit(name: str, value: str, json: bool, ask: AskFile) -> str:
    """Applies the rule to ``value`` of attribute ``name``; returns the value to record."""
    if not may_exceed_inline_limit(value):
        return value
    size = utf8_length(value)
    if size <= INLINE_VALUE_LIMIT or size > MAX_FILE_BYTES:
        return value
    sha256, size = digest_utf8(value)
    decision = ask(
        FoundFile(
            key=f"{name}#",
            sha256=sha256,
            size=size,
            content_type="application/json" if json else "text/plain",
            modality="document",
            source=Utf8Source(value),
        )
    )
    return value if decision == "keep" else utf8_prefix(value, INLINE_PREFIX_BYTES)
