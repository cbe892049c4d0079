"""Runs the application's ``redact(value, path)`` callback over OpenTelemetry values.

Paths: ``attributes.<name>``, ``resource.<name>``, ``events[<i>].<name>``, ``links[<i>].<name>``,
``status.message``, ``body``; inside a value ``[<i>]`` for a list item and ``.<key>`` for a map
entry (``body.messages[0].content``). Only strings reach the callback; numbers, booleans and bytes
are left as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..options.svc_options import Redactor
from .record_rejected_error import RecordRejectedError

MAX_REDACT_DEPTH = 64
"""Lists and maps nested deeper than this reject the record rather than go unredacted."""


def redact_string(value: str, path: str, redact: Redactor) -> str:
    """Runs ``redact`` on one string; raises RecordRejectedError when it fails."""
    try:
        result: object = redact(value, path)
    except Exception:
        raise RecordRejectedError("redactor-raised", path) from None
    if not isinstance(result, str):
        raise RecordRejectedError("redactor-returned-non-string", path)
    return result


def redact_value(value: object, path: str, redact: Redactor, depth: int = 0) -> object:
    """Runs ``redact`` on every string in ``value``; returns ``value`` itself when nothing changed."""
    if isinstance(value, str):
        return redact_string(value, path, redact)
    if value is None or isinstance(value, (bool, int, float, bytes, bytearray, memoryview)):
        return value
    if depth >= MAX_REDACT_DEPTH:
        raise RecordRejectedError("too-deep", path)
    if isinstance(value, Mapping):
        changed: dict[object, object] | None = None
        for key, item in value.items():
            following = redact_value(item, f"{path}.{key}", redact, depth + 1)
            if following is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = following
        return value if changed is None else changed
    if isinstance(value, Sequence):
        copy: list[object] | None = None
        for index, item in enumerate(value):
            following = redact_value(item, f"{path}[{index}]", redact, depth + 1)
            if following is not item:
                if copy is None:
                    copy = list(value)
                copy[index] = following
        if copy is None:
            return value
        return tuple(copy) if isinstance(value, tuple) else copy
    return value


def redact_attributes(attributes: Mapping[str, object], prefix: str, redact: Redactor) -> Mapping[str, object]:
    """Runs ``redact`` on the strings of an attribute map; the map itself when nothing changed."""
    copy: dict[str, object] | None = None
    for key, value in attributes.items():
        following = redact_value(value, prefix + key, redact)
        if following is not value:
            if copy is None:
                copy = dict(attributes)
            copy[key] = following
    return attributes if copy is None else copy
