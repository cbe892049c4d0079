"""Export accounting: every record produced ends in exactly one counter.

Accepted, rejected, failed or dropped; pending until then. Keeps the latest 128 issues and the
sequence number of the latest failure. Thread-safe: the application's threads, the export workers
and the upload workers all report here.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .export_status import ExportIssue, ExportStatus, IssueKind, Signal

MAX_KEPT_ISSUES = 128
"""Issues kept; older ones are forgotten."""

_FAILURE_KINDS = frozenset({"rejected", "failed", "dropped", "invalid"})
_NOUNS: dict[Signal, str] = {"traces": "spans", "logs": "log records"}
_logger = logging.getLogger("svc_run")


@dataclass
class _Counters:
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    dropped: int = 0
    pending: int = 0
    unreported_drops: int = 0


class ExportAccounting:
    """The counters and issues of one client."""

    def __init__(self, on_issue: Callable[[ExportIssue], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._on_issue = on_issue
        self._enqueued: dict[Signal, Callable[[], int]] = {}
        self._reset()

    def _reset(self) -> None:
        self._counters: dict[Signal, _Counters] = {"traces": _Counters(), "logs": _Counters()}
        self._issues: deque[ExportIssue] = deque(maxlen=MAX_KEPT_ISSUES)
        self._sequence = 0
        self._failure_sequence = 0
        self._uploaded_values = 0
        self._upload_fallbacks = 0

    def after_fork(self) -> None:
        """In a forked child: a new lock and empty counters (the parent's records are its own)."""
        self._lock = threading.Lock()
        self._reset()

    def count_queued_with(self, signal: Signal, enqueued: Callable[[], int]) -> None:
        """Where the number of records that ever entered ``signal``'s queue is read.

        A record is pending from the moment it is queued until it settles; the queue counts its
        records itself (under its own lock), so producing a record takes no lock here.
        """
        self._enqueued[signal] = enqueued

    def dropped(self, signal: Signal, count: int = 1) -> None:
        """Records were refused by a full queue (or after shutdown); see :meth:`report_drops`."""
        with self._lock:
            counters = self._counters[signal]
            counters.dropped += count
            counters.unreported_drops += count

    def report_drops(self, signal: Signal) -> None:
        """Raises one ``dropped`` issue for the drops not reported yet, if any."""
        with self._lock:
            counters = self._counters[signal]
            count = counters.unreported_drops
            counters.unreported_drops = 0
        if count > 0:
            self.raise_issue(
                signal,
                "dropped",
                count,
                f"{count} {_NOUNS[signal]} dropped: the export queue (2048 records) was full",
            )

    def settle(self, signal: Signal, accepted: int = 0, rejected: int = 0, failed: int = 0) -> None:
        """Pending records reached their end."""
        with self._lock:
            counters = self._counters[signal]
            counters.accepted += accepted
            counters.rejected += rejected
            counters.failed += failed

    def uploaded(self) -> None:
        """A file is stored under its trace (uploaded, or found already held there)."""
        with self._lock:
            self._uploaded_values += 1

    def upload_fallback(self, signal: Signal, count: int, reason: str) -> None:
        """``count`` files could not be uploaded: counted, with one ``warning`` issue."""
        with self._lock:
            self._upload_fallbacks += count
        files = "1 file" if count == 1 else f"{count} files"
        self.raise_issue(signal, "warning", count, f"{files} not uploaded: {reason}")

    def raise_issue(
        self, signal: Signal, kind: IssueKind, count: int, message: str, status: int | None = None
    ) -> ExportIssue:
        """Records and delivers an issue. ``message`` must be free of keys, bodies and content."""
        with self._lock:
            self._sequence += 1
            issue = ExportIssue(self._sequence, signal, kind, count, message, status)
            if kind in _FAILURE_KINDS:
                self._failure_sequence = issue.sequence
            self._issues.append(issue)
            callback = self._on_issue
        if callback is not None:
            try:
                callback(issue)
            except Exception as error:
                # A failing callback must not disturb exporting; its type alone is logged.
                _logger.warning("svc-run: on_export_issue raised %s", type(error).__name__)
        return issue

    def status(self) -> ExportStatus:
        """The cumulative counters and the latest issues."""
        with self._lock:
            traces = self._counters["traces"]
            logs = self._counters["logs"]
            for signal, counters in self._counters.items():
                enqueued = self._enqueued.get(signal)
                settled = counters.accepted + counters.rejected + counters.failed
                counters.pending = 0 if enqueued is None else enqueued() - settled
            return ExportStatus(
                accepted_spans=traces.accepted,
                accepted_logs=logs.accepted,
                rejected_spans=traces.rejected,
                rejected_logs=logs.rejected,
                failed_spans=traces.failed,
                failed_logs=logs.failed,
                dropped_spans=traces.dropped,
                dropped_logs=logs.dropped,
                pending_spans=traces.pending,
                pending_logs=logs.pending,
                upload_fallbacks=self._upload_fallbacks,
                uploaded_values=self._uploaded_values,
                issues=tuple(self._issues),
                failure_sequence=self._failure_sequence,
            )

    def failure_sequence(self) -> int:
        """The sequence number of the latest failure issue (0 when none)."""
        with self._lock:
            return self._failure_sequence

    def failures_after(self, sequence: int) -> tuple[ExportIssue, ...]:
        """Failure issues (not warnings) with a sequence number above ``sequence``, oldest first."""
        with self._lock:
            return tuple(i for i in self._issues if i.sequence > sequence and i.kind in _FAILURE_KINDS)
