"""The options of ``media.fetch`` and ``media.resolve``, and their one validation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors.invalid_option_error import InvalidOptionError
from ...options.describe import describe
from ..media_types import MAX_FILE_BYTES

DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024
"""Default size limit of one file read back: 64 MiB."""

_OTEL_TRACE_ID = re.compile("[0-9a-f]{32}")
_UUID = re.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SPAN_ID = re.compile("[0-9a-f]{16}")
_SHA256 = re.compile("[0-9a-f]{64}")
_ALL_ZERO = re.compile("[0-]+")


@dataclass(frozen=True)
class ReadTarget:
    """Where files are read from (a trace or a trace snapshot), and the limits."""

    trace_id: str | None
    snapshot_id: str | None
    span_id: str | None
    max_bytes: int


def is_sha256(value: object) -> bool:
    """True when ``value`` is a SHA-256 in lowercase hex (64 characters)."""
    return isinstance(value, str) and _SHA256.fullmatch(value) is not None


def validate_sha256(value: object, name: str) -> str:
    """Checks a SHA-256 in lowercase hex; ``name`` is how the message names it."""
    if is_sha256(value):
        assert isinstance(value, str)
        return value
    raise InvalidOptionError(f"{name} must be 64 lowercase hex characters (a SHA-256); got {describe(value)}")


def resolve_read_target(trace_id: object, snapshot_id: object, span_id: object, max_bytes: object) -> ReadTarget:
    """Validates the source and limits common to ``fetch`` and ``resolve``."""
    if snapshot_id is not None:
        if trace_id is not None:
            raise InvalidOptionError(
                "trace_id and snapshot_id cannot both be given: pass trace_id to read from the trace, or "
                "snapshot_id to read from an evaluation trace snapshot"
            )
        if not isinstance(snapshot_id, str) or _UUID.fullmatch(snapshot_id) is None:
            raise InvalidOptionError(
                "snapshot_id must be a lowercase UUID (the trace_snapshot_id of a completed execution); "
                f"got {describe(snapshot_id)}"
            )
    elif trace_id is None:
        raise InvalidOptionError(
            "trace_id or snapshot_id is required: pass trace_id to read from a trace, or snapshot_id to read "
            "from an evaluation trace snapshot; got neither"
        )
    elif (
        not isinstance(trace_id, str)
        or not (_OTEL_TRACE_ID.fullmatch(trace_id) or _UUID.fullmatch(trace_id))
        or _ALL_ZERO.fullmatch(trace_id)
    ):
        raise InvalidOptionError(
            "trace_id must be 32 lowercase hex characters or a lowercase UUID (the service trace ID), "
            f"not all zero; got {describe(trace_id)}"
        )
    if span_id is not None and (
        not isinstance(span_id, str) or _SPAN_ID.fullmatch(span_id) is None or _ALL_ZERO.fullmatch(span_id)
    ):
        raise InvalidOptionError(f"span_id must be 16 lowercase hex characters, not all zero; got {describe(span_id)}")
    if max_bytes is not None and (
        isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or not 0 <= max_bytes <= MAX_FILE_BYTES
    ):
        raise InvalidOptionError(f"max_bytes must be an integer from 0 to {MAX_FILE_BYTES}; got {describe(max_bytes)}")
    return ReadTarget(
        trace_id if isinstance(trace_id, str) else None,
        snapshot_id if isinstance(snapshot_id, str) else None,
        span_id if isinstance(span_id, str) else None,
        DEFAULT_MAX_FILE_BYTES if max_bytes is None else int(max_bytes),
    )
