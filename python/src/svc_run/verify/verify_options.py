"""Validation of ``verify_trace`` arguments (the spec's "Limits", Verification row)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors.invalid_option_error import InvalidOptionError
from ..options.describe import describe

DEFAULT_VERIFY_TIMEOUT_MILLIS = 10_000
"""Default overall verification deadline, in milliseconds."""
MAX_VERIFY_TIMEOUT_MILLIS = 60_000
"""Largest overall verification deadline, in milliseconds."""
MAX_EXPECTED_SPAN_IDS = 100
"""Largest number of unique expected span IDs."""

_TRACE_ID = re.compile("[0-9a-f]{32}")
_SPAN_ID = re.compile("[0-9a-f]{16}")
_ALL_ZERO = re.compile("0+")


@dataclass(frozen=True)
class ResolvedVerifyOptions:
    """``verify_trace`` arguments after validation."""

    trace_id: str
    expected_span_ids: list[str]
    """Unique, in first-seen order."""
    required_fields: list[str]
    timeout_millis: float


def _is_id(value: object, pattern: re.Pattern[str]) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None and _ALL_ZERO.fullmatch(value) is None


def _validate_span_ids(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidOptionError(f"expected_span_ids must be a list of span IDs; got {describe(value)}")
    unique: dict[str, None] = {}
    for index, span_id in enumerate(value):
        if not _is_id(span_id, _SPAN_ID):
            raise InvalidOptionError(
                f"expected_span_ids[{index}] must be 16 lowercase hex characters, not all zero; got {describe(span_id)}"
            )
        unique[span_id] = None
    if len(unique) > MAX_EXPECTED_SPAN_IDS:
        raise InvalidOptionError(
            f"expected_span_ids must hold at most {MAX_EXPECTED_SPAN_IDS} unique span IDs; got {len(unique)}"
        )
    return list(unique)


def _validate_fields(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidOptionError(f"required_fields must be a list of field names; got {describe(value)}")
    seen: dict[str, None] = {}
    for index, name in enumerate(value):
        if not isinstance(name, str) or name == "":
            raise InvalidOptionError(f"required_fields[{index}] must be a nonempty string; got {describe(name)}")
        if name in seen:
            raise InvalidOptionError(
                f"required_fields must hold unique field names; got {describe(name)} more than once"
            )
        seen[name] = None
    return list(seen)


def _validate_timeout(value: object) -> float:
    if value is None:
        return DEFAULT_VERIFY_TIMEOUT_MILLIS
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
        or value > MAX_VERIFY_TIMEOUT_MILLIS
    ):
        raise InvalidOptionError(
            f"timeout_millis must be a positive finite number of at most {MAX_VERIFY_TIMEOUT_MILLIS}; "
            f"got {describe(value)}"
        )
    return float(value)


def resolve_verify_options(
    trace_id: object, expected_span_ids: object, required_fields: object, timeout_millis: object
) -> ResolvedVerifyOptions:
    """Validates the arguments of ``verify_trace``.

    Raises:
        InvalidOptionError: naming the argument, the value and the rule it breaks.
    """
    if not _is_id(trace_id, _TRACE_ID):
        raise InvalidOptionError(
            f"trace_id must be 32 lowercase hex characters, not all zero; got {describe(trace_id)}"
        )
    assert isinstance(trace_id, str)
    return ResolvedVerifyOptions(
        trace_id,
        _validate_span_ids(expected_span_ids),
        _validate_fields(required_fields),
        _validate_timeout(timeout_millis),
    )
