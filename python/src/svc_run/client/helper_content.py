"""Helper content: JSON text of at most 256 KiB per field.

Span input and output, tool arguments and results, model messages. ``None``, ``False``, ``0`` and
``""`` are present values; leaving the argument out omits the field. An ``Attachment`` anywhere in
the value is recorded in digest form and reported with its JSON pointer so its bytes can upload
with the record. Pydantic models (``model_dump``) and dataclasses serialize as their fields.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..media.attachment.attachment import Attachment, attachments_created
from ..media.scan.json.js_text import utf8_length
from ..media.scan.json.json_pointer import escape_pointer_token

MAX_HELPER_CONTENT_BYTES = 256 * 1024
"""Largest JSON text of one helper content field, in UTF-8 bytes."""


class _Unset:
    """The marker of an argument left out (``None`` is a present value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""Default of content arguments: the field is omitted."""


@dataclass(frozen=True)
class PlacedAttachment:
    """An attachment found in a helper content value, and where (``""``: the whole value)."""

    pointer: str
    attachment: Attachment


class HelperContent(NamedTuple):
    """The JSON text of a field, or why it cannot be recorded (``json`` is then ``None``)."""

    json: str | None
    problem: str | None = None
    attachments: list[PlacedAttachment] | None = None


def _default(value: object) -> object:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json")
        except TypeError:
            return dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, Attachment):
        return value.to_json()
    raise TypeError(type(value).__name__)


def _with_attachments(value: object, pointer: str, found: list[PlacedAttachment], depth: int) -> object:
    if isinstance(value, Attachment):
        found.append(PlacedAttachment(pointer, value))
        return value.to_json()
    if depth > 64:
        return value
    if isinstance(value, dict):
        return {
            key: _with_attachments(item, f"{pointer}/{escape_pointer_token(str(key))}", found, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_with_attachments(item, f"{pointer}/{index}", found, depth + 1) for index, item in enumerate(value)]
    return value


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_default)


def dumps(value: object) -> str:
    """The compact JSON text the SDK records (UTF-8 characters as they are, no NaN)."""
    return _ENCODER.encode(value)


def helper_content(value: object, field_name: str) -> HelperContent | None:
    """Serializes ``value`` for the field ``field_name``; ``None`` when the value is ``UNSET``."""
    if value is UNSET:
        return None
    attachments: list[PlacedAttachment] = []
    try:
        if attachments_created() > 0:
            value = _with_attachments(value, "", attachments, 0)
        text = dumps(value)
    except (TypeError, ValueError, RecursionError):
        return HelperContent(None, f"{field_name} was not recorded: it does not serialize as JSON")
    if utf8_length(text) > MAX_HELPER_CONTENT_BYTES:
        return HelperContent(None, f"{field_name} was not recorded: its JSON is over 256 KiB")
    return HelperContent(text, None, attachments or None)
