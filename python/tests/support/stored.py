"""Reading what the reference server stored (its OTLP JSON form) back into plain values."""

from __future__ import annotations

import base64
from typing import Any


def any_value(value: dict[str, Any]) -> object:
    """The plain value of an OTLP ``AnyValue`` as the server stores it."""
    if "stringValue" in value:
        return value["stringValue"]
    if "boolValue" in value:
        return value["boolValue"]
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "bytesValue" in value:
        return base64.b64decode(value["bytesValue"])
    if "arrayValue" in value:
        return [any_value(item) for item in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return {item["key"]: any_value(item["value"]) for item in value["kvlistValue"].get("values", [])}
    return None


def attributes(record: dict[str, Any]) -> dict[str, object]:
    """The attributes of a stored span, event or log record, as plain values."""
    return {item["key"]: any_value(item["value"]) for item in record.get("attributes", [])}


def strings(value: object) -> list[str]:
    """``value`` as a list of strings (a stored string-array attribute such as ``svc.blobs``)."""
    assert isinstance(value, list)
    assert all(isinstance(item, str) for item in value)
    return [str(item) for item in value]


def span_named(spans: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """The one stored span called ``name``."""
    found = [span for span in spans if span["name"] == name]
    assert len(found) == 1, f"{len(found)} spans named {name!r}"
    return found[0]
