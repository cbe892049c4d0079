"""Retries of one upload step (reserve, PUT, complete).

Up to 3 attempts when there is no answer or the answer is 408, 429 or 5xx, waiting ``Retry-After``
(capped at 60 s) or a short jittered backoff between attempts.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ...export.retry_policy import MAX_RETRY_AFTER_SECONDS, parse_retry_after
from ...http.http_client import HttpAnswer, NoAnswerError
from .upload_source_error import UploadSourceError

UPLOAD_ATTEMPTS = 3
"""Attempts of each step, the first included."""
_BACKOFF_SECONDS = 0.5
_JITTER = 0.2

Sleep = Callable[[float, threading.Event], bool]
"""Waits ``seconds`` or until the event is set; returns True when it was set (aborted)."""


def event_sleep(seconds: float, aborted: threading.Event) -> bool:
    """The default :data:`Sleep`."""
    return aborted.wait(seconds)


def is_retryable_upload_status(status: int) -> bool:
    """Whether an upload route's answer is retried."""
    return status in (408, 429) or 500 <= status <= 599


def upload_retry_delay_seconds(attempt: int, retry_after: str | None) -> float:
    """The wait before attempt ``attempt + 1``: ``Retry-After`` (at most 60 s) or a backoff."""
    asked = parse_retry_after(retry_after)
    if asked is not None:
        return min(asked, MAX_RETRY_AFTER_SECONDS)
    backoff = _BACKOFF_SECONDS * float(2 ** (attempt - 1))
    return backoff * (1 - _JITTER + random.random() * 2 * _JITTER)


@dataclass(frozen=True)
class Answered:
    """The step got an answer (maybe an error status, after retries)."""

    answer: HttpAnswer


@dataclass(frozen=True)
class Unanswered:
    """No answer after every attempt; ``code`` is a short reason such as ``ECONNRESET``."""

    code: str | None


@dataclass(frozen=True)
class Aborted:
    """The upload was ended (shutdown)."""


@dataclass(frozen=True)
class SourceFailed:
    """The bytes are not the recorded ones."""

    error: UploadSourceError


StepOutcome = Answered | Unanswered | Aborted | SourceFailed


def with_upload_retries(attempt: Callable[[], HttpAnswer], aborted: threading.Event, sleep: Sleep) -> StepOutcome:
    """Runs ``attempt`` until it gets an answer that is not retried, or the attempts run out."""
    attempts = 1
    while True:
        if aborted.is_set():
            return Aborted()
        retry_after: str | None = None
        outcome: StepOutcome
        try:
            answer = attempt()
        except UploadSourceError as error:
            return SourceFailed(error)
        except NoAnswerError as error:
            if aborted.is_set():
                return Aborted()
            outcome = Unanswered(None if error.reason == "timeout" else error.reason)
        else:
            outcome = Answered(answer)
            retry_after = answer.headers.get("retry-after")
            if not is_retryable_upload_status(answer.status):
                return outcome
        if attempts >= UPLOAD_ATTEMPTS:
            return outcome
        if sleep(upload_retry_delay_seconds(attempts, retry_after), aborted):
            return Aborted()
        attempts += 1
