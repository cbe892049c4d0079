"""The export path of one signal, on a background thread.

A bounded queue (2,048 records, in-flight exports included), batches of up to 512 records sent one
at a time, as soon as a batch is full, a flush asks, or 1 s after the first record queued; once
started, the worker sends batch after batch until the queue is empty. Every record settles in
exactly one counter. The worker is a daemon thread started with the first record, and started
afresh in a forked child.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..content.record_rejected_error import RecordRejectedError
from .acknowledgement import read_acknowledgement
from .export_accounting import ExportAccounting
from .export_status import Signal
from .otlp_sender import Acknowledged, Failed, SendResult

T = TypeVar("T")

QUEUE_CAPACITY = 2_048
"""Records per signal held in memory, exports in flight included."""
MAX_BATCH_SIZE = 512
"""Records per export request."""
SCHEDULE_DELAY_SECONDS = 1.0
"""Longest wait before queued records are sent."""

_NOUNS: dict[Signal, tuple[str, str]] = {"traces": ("spans", "span"), "logs": ("log records", "log record")}
_logger = logging.getLogger("svc_run")


@dataclass
class PipelineSteps(Generic[T]):
    """What a pipeline does with its records."""

    prepare: Callable[[T], T]
    """The content policy and media step: the record to export, or raises RecordRejectedError."""
    encode: Callable[[Sequence[T]], bytes]
    """OTLP protobuf serialization of a batch."""
    send: Callable[[bytes], SendResult]
    """Sends a serialized batch (with retries); never raises."""
    dropped: Callable[[T], None]
    """Called with each record that will not be exported (dropped, or rejected by ``prepare``)."""


def _failure_message(result: Failed, count: int, noun: str) -> str:
    lost = f"{count} {noun} not exported"
    if result.cause == "aborted":
        return f"{lost}: the export was ended by shutdown"
    if result.cause == "timeout":
        return f"{lost}: the service did not answer within the timeout, after retries"
    if result.cause == "network":
        code = f" ({result.code})" if result.code else ""
        return f"{lost}: the service could not be reached{code}, after retries"
    if result.status == 401:
        return f"{lost}: the service refused the key (HTTP 401); use a valid, unrevoked project key"
    if result.status == 403:
        return f"{lost}: the key may not ingest (HTTP 403); use a Tracing key, not a Read key"
    if result.status in (404, 405):
        return f"{lost}: no OTLP route there (HTTP {result.status}); base_url must be the service origin without a path"
    return f"{lost}: the service answered HTTP {result.status}"


class SignalPipeline(Generic[T]):
    """Queue, batching, worker thread and accounting of one signal."""

    def __init__(self, signal: Signal, accounting: ExportAccounting, steps: PipelineSteps[T]) -> None:
        self._signal: Signal = signal
        self._accounting = accounting
        self._steps = steps
        self._noun, self._singular = _NOUNS[signal]
        self._init_state()
        accounting.count_queued_with(signal, lambda: self._enqueued)

    def _init_state(self) -> None:
        self._cond = threading.Condition()
        self._queue: deque[T] = deque()
        self._in_flight: list[T] = []
        self._batch = 0
        """Number of the batch in flight; an aborted batch's result is ignored."""
        self._enqueued = 0
        self._settled = 0
        self._first_queued_at: float | None = None
        self._running = False
        self._flush_waiters = 0
        self._closed = False
        self._stopping = False
        self._worker_running = False

    def after_fork(self) -> None:
        """In a forked child: an empty queue and no worker (one starts with the next record)."""
        closed = self._closed
        self._init_state()
        self._closed = closed

    @property
    def pending(self) -> int:
        """Records queued or being exported."""
        with self._cond:
            return len(self._queue) + len(self._in_flight)

    def add(self, record: T) -> None:
        """Queues a record; drops (and counts) it when the queue is full or shut down."""
        with self._cond:
            refused = self._closed or len(self._queue) + len(self._in_flight) >= QUEUE_CAPACITY
            if not refused:
                self._queue.append(record)
                self._enqueued += 1
                if self._first_queued_at is None:
                    self._first_queued_at = time.monotonic()
                self._ensure_worker()
                if len(self._queue) >= MAX_BATCH_SIZE:
                    self._cond.notify_all()
        if refused:
            self._accounting.dropped(self._signal)
            self._safely(self._steps.dropped, record)

    def flush(self, timeout_seconds: float | None) -> bool:
        """Exports what is queued now; True once all of it settled within the timeout."""
        deadline = None if timeout_seconds is None else time.monotonic() + max(0.0, timeout_seconds)
        with self._cond:
            target = self._enqueued
            if self._settled < target:
                self._flush_waiters += 1
                self._ensure_worker()
                self._cond.notify_all()
                try:
                    while self._settled < target:
                        remaining = None if deadline is None else deadline - time.monotonic()
                        if remaining is not None and remaining <= 0:
                            break
                        self._cond.wait(remaining)
                finally:
                    self._flush_waiters -= 1
            done = self._settled >= target
        self._accounting.report_drops(self._signal)
        return done

    def close(self) -> None:
        """Refuses further records (they are dropped and counted) and stops the worker when idle."""
        with self._cond:
            self._closed = True
            self._stopping = True
            self._cond.notify_all()

    def abort(self) -> None:
        """Settles every record not exported yet as failed (the export was ended by shutdown)."""
        with self._cond:
            self._closed = True
            self._stopping = True
            abandoned = list(self._in_flight) + list(self._queue)
            self._queue.clear()
            self._in_flight = []
            self._batch += 1
            self._settled += len(abandoned)
            self._running = False
            self._cond.notify_all()
        if abandoned:
            for record in abandoned:
                self._safely(self._steps.dropped, record)
            count = len(abandoned)
            self._accounting.settle(self._signal, failed=count)
            self._accounting.raise_issue(
                self._signal, "failed", count, _failure_message(Failed("aborted"), count, self._noun)
            )

    def _ensure_worker(self) -> None:
        """Starts the worker thread if it is not running (called holding the lock)."""
        if self._worker_running:
            return
        self._worker_running = True
        threading.Thread(target=self._work, name=f"svc-run-export-{self._signal}", daemon=True).start()

    def _next_batch(self) -> tuple[int, list[T]] | None:
        """Waits for a batch to send; ``None`` when the worker should stop."""
        with self._cond:
            while True:
                if self._queue:
                    due = (
                        self._running
                        or self._flush_waiters > 0
                        or self._stopping
                        or len(self._queue) >= MAX_BATCH_SIZE
                        or (
                            self._first_queued_at is not None
                            and time.monotonic() - self._first_queued_at >= SCHEDULE_DELAY_SECONDS
                        )
                    )
                    if due:
                        break
                    wait = SCHEDULE_DELAY_SECONDS - (time.monotonic() - (self._first_queued_at or 0.0))
                    self._cond.wait(max(0.0, wait))
                    continue
                self._running = False
                self._first_queued_at = None
                if self._stopping:
                    self._worker_running = False
                    return None
                self._cond.wait()
            count = min(MAX_BATCH_SIZE, len(self._queue))
            batch = [self._queue.popleft() for _ in range(count)]
            self._in_flight = batch
            self._running = True
            self._first_queued_at = None if not self._queue else time.monotonic()
            self._batch += 1
            return self._batch, batch

    def _work(self) -> None:
        while True:
            taken = self._next_batch()
            if taken is None:
                return
            number, batch = taken
            try:
                self._export(number, batch)
            except BaseException as error:  # never lose the worker
                _logger.warning("svc-run: an export failed unexpectedly (%s)", type(error).__name__)
                self._settle(number, batch, failed=len(batch))
            finally:
                with self._cond:
                    if self._batch == number:
                        self._in_flight = []
                    self._cond.notify_all()

    def _settle(self, number: int, batch: list[T], accepted: int = 0, rejected: int = 0, failed: int = 0) -> bool:
        """Counts a batch's end, unless an abort already settled it. Returns whether it counted."""
        with self._cond:
            if self._batch != number:
                return False
            settled = {id(record) for record in batch}
            self._in_flight = [record for record in self._in_flight if id(record) not in settled]
            self._settled += accepted + rejected + failed
            self._cond.notify_all()
        self._accounting.settle(self._signal, accepted=accepted, rejected=rejected, failed=failed)
        return True

    def _export(self, number: int, records: list[T]) -> None:
        signal = self._signal
        accounting = self._accounting
        accounting.report_drops(signal)
        prepared: list[T] = []
        for record in records:
            try:
                prepared.append(self._steps.prepare(record))
            except RecordRejectedError as error:
                self._safely(self._steps.dropped, record)
                if self._settle(number, [record], rejected=1):
                    accounting.raise_issue(signal, "rejected", 1, f"1 {self._singular} rejected: {error}")
            except Exception as error:
                self._safely(self._steps.dropped, record)
                if self._settle(number, [record], failed=1):
                    accounting.raise_issue(
                        signal,
                        "failed",
                        1,
                        f"1 {self._singular} not exported: it could not be prepared ({type(error).__name__})",
                    )
        count = len(prepared)
        if count == 0:
            return
        try:
            body = self._steps.encode(prepared)
        except Exception:
            if self._settle(number, prepared, failed=count):
                accounting.raise_issue(
                    signal, "failed", count, f"{count} {self._noun} not exported: they could not be serialized as OTLP"
                )
            return
        result = self._steps.send(body)
        if isinstance(result, Failed):
            if self._settle(number, prepared, failed=count):
                accounting.raise_issue(
                    signal, "failed", count, _failure_message(result, count, self._noun), result.status
                )
            return
        assert isinstance(result, Acknowledged)
        ack = read_acknowledgement(signal, result.body)
        if ack is None or ack.rejected > count:
            if self._settle(number, prepared, failed=count):
                accounting.raise_issue(
                    signal,
                    "invalid",
                    count,
                    f"{count} {self._noun} of unknown fate: the service's acknowledgement is not an OTLP "
                    "export response",
                    result.status,
                )
            return
        if not self._settle(number, prepared, accepted=count - ack.rejected, rejected=ack.rejected):
            return
        if ack.rejected > 0:
            accounting.raise_issue(
                signal, "rejected", ack.rejected, f"the service rejected {ack.rejected} of {count} {self._noun}"
            )
        elif ack.warning:
            accounting.raise_issue(signal, "warning", 0, f"the service accepted {count} {self._noun} with a warning")

    @staticmethod
    def _safely(callback: Callable[[T], None], record: T) -> None:
        try:
            callback(record)
        except Exception as error:
            _logger.debug("svc-run: a record's files were not released (%s)", type(error).__name__)
