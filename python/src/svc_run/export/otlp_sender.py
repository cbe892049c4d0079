"""Sends one serialized OTLP export request to a signal URL, with the retry policy.

It knows nothing of records: it answers how the exchange ended. Waits between attempts end early
when the transport is aborted (a shutdown whose deadline passed).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..http.http_client import HttpClient, NoAnswerError
from .retry_policy import MAX_EXPORT_ATTEMPTS, is_retryable_status, retry_delay_seconds

MAX_ACK_BYTES = 1024 * 1024
"""Largest acknowledgement body read; a longer one is not an OTLP export response."""
CONTENT_TYPE = "application/x-protobuf"

FailureCause = Literal["http", "network", "timeout", "aborted"]


@dataclass(frozen=True)
class Acknowledged:
    """The service answered 2xx."""

    status: int
    body: bytes | None


@dataclass(frozen=True)
class Failed:
    """The export failed, after retries."""

    cause: FailureCause
    status: int | None = None
    code: str | None = None


SendResult = Acknowledged | Failed


@dataclass
class Sender:
    """Sends serialized batches of one signal to the service."""

    http: HttpClient
    url: str
    api_key: str
    timeout_millis: int
    aborted_event: Callable[[], threading.Event]
    """The event set when the transport is aborted: no further attempt, waits end."""

    @property
    def aborted(self) -> threading.Event:
        """The transport's abort event (a new one in a forked child)."""
        return self.aborted_event()

    def _attempt(self, body: bytes) -> tuple[SendResult, bool, str | None]:
        try:
            answer = self.http.request(
                "POST",
                self.url,
                headers={
                    "authorization": f"Bearer {self.api_key}",
                    "content-type": CONTENT_TYPE,
                    "accept": CONTENT_TYPE,
                },
                body=body,
                timeout_seconds=self.timeout_millis / 1000,
                max_body_bytes=MAX_ACK_BYTES,
            )
        except NoAnswerError as error:
            if self.aborted.is_set():
                return Failed("aborted"), False, None
            cause: FailureCause = "timeout" if error.failure == "timeout" else "network"
            return Failed(cause, code=None if cause == "timeout" else error.reason), True, None
        if 200 <= answer.status < 300:
            return Acknowledged(answer.status, answer.body), False, None
        return (
            Failed("http", status=answer.status),
            is_retryable_status(answer.status),
            answer.headers.get("retry-after"),
        )

    def send(self, body: bytes) -> SendResult:
        """Sends ``body``, retrying per the policy; never raises."""
        attempts = 1
        while True:
            if self.aborted.is_set():
                return Failed("aborted")
            result, retry, retry_after = self._attempt(body)
            if not retry or attempts >= MAX_EXPORT_ATTEMPTS:
                return result
            if self.aborted.wait(retry_delay_seconds(attempts, retry_after)):
                return Failed("aborted")
            attempts += 1
