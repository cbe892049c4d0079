"""The OpenTelemetry OTLP exporter retry policy, as the TypeScript SDK applies it.

429, 502, 503 and 504 answers and no answer are retried with exponential backoff and jitter, at
most 5 attempts in all; a ``Retry-After`` header (seconds or an HTTP date) replaces the backoff,
capped at 60 seconds. Partial rejections are never retried.
"""

from __future__ import annotations

import random
import time
from email.utils import parsedate_to_datetime

MAX_EXPORT_ATTEMPTS = 5
"""Attempts in all, the first included."""
_INITIAL_BACKOFF_SECONDS = 1.0
_MAX_BACKOFF_SECONDS = 5.0
_BACKOFF_MULTIPLIER = 1.5
_JITTER = 0.2
MAX_RETRY_AFTER_SECONDS = 60.0
"""The longest wait a ``Retry-After`` header can ask for."""

_RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})


def is_retryable_status(status: int) -> bool:
    """Whether an HTTP status of an export is retried."""
    return status in _RETRYABLE_STATUSES


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` value asks for, or ``None`` when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    stripped = value.strip()
    if stripped.isascii() and stripped.isdigit():
        return float(int(stripped))
    try:
        when = parsedate_to_datetime(stripped)
    except (TypeError, ValueError, IndexError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def retry_delay_seconds(attempt: int, retry_after: str | None) -> float:
    """The wait before attempt ``attempt + 1`` (attempts count from 1), honouring ``Retry-After``."""
    asked = parse_retry_after(retry_after)
    if asked is not None:
        return min(asked, MAX_RETRY_AFTER_SECONDS)
    backoff = min(_INITIAL_BACKOFF_SECONDS * _BACKOFF_MULTIPLIER ** (attempt - 1), _MAX_BACKOFF_SECONDS)
    return backoff * (1 - _JITTER + random.random() * 2 * _JITTER)
