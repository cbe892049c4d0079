"""The trace receipt of the spec ("Trace receipt") and the result of ``verify_trace``."""

from __future__ import annotations

from dataclasses import dataclass

_MAX_SAFE_INTEGER = 2**53 - 1


@dataclass(frozen=True)
class TraceReceipt:
    """What the service stored of a trace: field presence and the requested span IDs.

    It does not confirm payload correctness or that every span of a distributed trace arrived.
    """

    trace_id: str
    span_count: int
    revision: int
    fields: dict[str, bool]
    """Normalized field names (``input``, ``output``, ``model``, ...) → presence."""
    matched_span_ids: list[str]
    missing_span_ids: list[str]
    trace_url: str


@dataclass(frozen=True)
class TraceVerification:
    """The result of ``verify_trace``."""

    verified: bool
    """True when every expected span ID and every required field was found."""
    receipt: TraceReceipt | None
    """The latest receipt read, or ``None`` when the trace was never found."""


def _safe_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER


def parse_trace_receipt(json_body: object, trace_id: str) -> TraceReceipt | None:
    """The receipt in ``json_body`` for ``trace_id``, or ``None`` when it is not one."""
    if not isinstance(json_body, dict):
        return None
    span_count = json_body.get("spanCount")
    revision = json_body.get("revision")
    fields = json_body.get("fields")
    matched = json_body.get("matchedSpanIds")
    missing = json_body.get("missingSpanIds")
    trace_url = json_body.get("traceUrl")
    if (
        json_body.get("traceId") != trace_id
        or not _safe_int(span_count)
        or not isinstance(span_count, int)
        or span_count < 0
        or not _safe_int(revision)
        or not isinstance(revision, int)
        or not isinstance(fields, dict)
        or not all(isinstance(key, str) and isinstance(value, bool) for key, value in fields.items())
        or not isinstance(matched, list)
        or not all(isinstance(item, str) for item in matched)
        or not isinstance(missing, list)
        or not all(isinstance(item, str) for item in missing)
        or not isinstance(trace_url, str)
    ):
        return None
    return TraceReceipt(trace_id, span_count, revision, dict(fields), list(matched), list(missing), trace_url)
