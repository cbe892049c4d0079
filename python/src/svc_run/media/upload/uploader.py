"""The uploader: files admitted at export upload in the background, 4 at a time.

Each file goes reserve → PUT → complete against the service's upload routes, each step tried up
to 3 times; each PUT attempt has a deadline of six export timeouts or one second per MiB, whichever
is longer (the Python rule of the spec). The same bytes in the same trace upload once. A file that
cannot upload never fails anything: it counts as a fallback.

Admission happens while a record is prepared for export, in an :class:`UploadBatch`: the record's
files are offered (budget, dedupe and the uploader's state decide), then committed once the record
holds their references, or cancelled.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ...http.http_client import HttpAnswer, HttpClient
from ..media_types import UPLOAD_BUDGET_BYTES, FoundFile, PathSource
from .read_reservation import Exists, read_reservation
from .upload_body import file_state, upload_body
from .upload_budget import UploadBudget, held_bytes
from .upload_job import UploadJob, UploadRefusal, UploadSink
from .upload_retry import (
    UPLOAD_ATTEMPTS,
    Aborted,
    Answered,
    SourceFailed,
    StepOutcome,
    Unanswered,
    event_sleep,
    with_upload_retries,
)
from .upload_source_error import UploadSourceError

UPLOAD_CONCURRENCY = 4
"""Uploads in flight at once."""
PUT_TIMEOUTS_PER_DEADLINE = 6
"""A PUT attempt's deadline: this many export timeouts, or one second per MiB if longer."""
RESERVE_PATH = "/api/v1/otlp/blobs"
COMPLETE_PATH = "/api/v1/otlp/blobs/complete"
_REMEMBERED_STORED = 4_096
_MAX_ANSWER_BYTES = 64 * 1024
_MIB = 1024 * 1024

_KNOWN_CODES = frozenset(
    {
        "invalid_request",
        "payload_too_large",
        "already_stored",
        "link_expired",
        "forbidden",
        "unauthorized",
        "size_mismatch",
        "digest_mismatch",
        "not_uploaded",
        "not_found",
        "rate_limited",
        "unavailable",
    }
)
_logger = logging.getLogger("svc_run")


def put_deadline_seconds(timeout_millis: int, size: int) -> float:
    """The deadline of one PUT attempt: six export timeouts or one second per MiB, the longer."""
    return max(PUT_TIMEOUTS_PER_DEADLINE * timeout_millis / 1000, size / _MIB)


def _json_of(answer: HttpAnswer) -> object:
    if not answer.body:
        return None
    try:
        parsed: object = json.loads(answer.body)
    except ValueError:
        return None
    return parsed


def _error_code(answer: HttpAnswer) -> str | None:
    body = _json_of(answer)
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


def _refused_by(step: str, answer: HttpAnswer) -> str:
    code = _error_code(answer)
    shown = f" {code}" if code is not None and code in _KNOWN_CODES else ""
    return f"the service refused the {step} (HTTP {answer.status}{shown})"


@dataclass
class _Ticket:
    job: UploadJob
    key: str
    charge: int
    followers: int = 0


@dataclass
class _Task:
    ticket: _Ticket
    number: int
    aborted: threading.Event = field(default_factory=threading.Event)
    settled: bool = False


class UploadBatch:
    """Offers of one record's files; see :meth:`Uploader.batch`."""

    def __init__(self, uploader: Uploader) -> None:
        self._uploader = uploader
        self._tickets: dict[str, _Ticket] = {}
        self._ended = False

    def offer(self, job: UploadJob, held: int | None = None) -> UploadRefusal | None:
        """Admits ``job`` for upload; returns why not when refused.

        ``held``, a charge of :meth:`Uploader.hold` taken while the record waited for export, is
        taken over by the upload or given back: the caller never gives it back itself.
        """
        refusal, charged = self._uploader._admit(self._tickets, job, held)
        if held is not None and not charged:
            self._uploader.release(held)
        return refusal

    def commit(self) -> None:
        """Queues the admitted files."""
        if self._ended:
            return
        self._ended = True
        for ticket in self._tickets.values():
            self._uploader._enqueue(ticket)

    def cancel(self) -> None:
        """Gives back what the admitted files held of the budget; nothing is uploaded."""
        if self._ended:
            return
        self._ended = True
        for ticket in self._tickets.values():
            self._uploader.release(ticket.charge)


class Uploader:
    """Background uploads of one client."""

    def __init__(
        self,
        *,
        http: HttpClient,
        base_url: str,
        api_key: str,
        timeout_millis: int,
        sink: UploadSink,
        concurrency: int = UPLOAD_CONCURRENCY,
        budget_bytes: int = UPLOAD_BUDGET_BYTES,
        sleep: Callable[[float, threading.Event], bool] = event_sleep,
    ) -> None:
        self._http = http
        self._base_url = base_url
        self._api_key = api_key
        self._timeout_millis = timeout_millis
        self._sink = sink
        self._concurrency = concurrency
        self._budget = UploadBudget(budget_bytes)
        self._sleep = sleep
        self._init_state()

    def _init_state(self) -> None:
        self._cond = threading.Condition()
        self._queue: deque[_Task] = deque()
        self._unsettled: dict[int, _Task] = {}
        self._pending: dict[str, _Task] = {}
        self._stored: OrderedDict[str, None] = OrderedDict()
        self._next_number = 0
        self._active_workers = 0
        self._running = 0
        self._aborting = False
        self._closed = False
        self._route_missing = False

    def after_fork(self) -> None:
        """In a forked child: nothing queued, nothing held, no worker (they start on demand)."""
        closed = self._closed
        self._budget.after_fork()
        self._init_state()
        self._closed = closed

    def refusal(self) -> UploadRefusal | None:
        """Why a file offered now would be refused whatever it is, or ``None``."""
        if self._closed:
            return "closed"
        if self._route_missing:
            return "no-route"
        return None

    @property
    def held_bytes(self) -> int:
        """Bytes held in memory by admitted uploads not yet ended."""
        return self._budget.used

    @property
    def pending(self) -> int:
        """Uploads queued or running."""
        with self._cond:
            return len(self._unsettled)

    def hold(self, file: FoundFile) -> int | None:
        """Charges the budget for a file attached to a record waiting for export (or ``None``)."""
        return self._budget.take(held_bytes(file.source, file.size))

    def release(self, charge: int) -> None:
        """Gives back a charge of :meth:`hold` that no upload took over."""
        if charge > 0:
            self._budget.give(charge)

    def batch(self) -> UploadBatch:
        """Starts the offers of one record's files."""
        return UploadBatch(self)

    def _admit(
        self, tickets: dict[str, _Ticket], job: UploadJob, held: int | None
    ) -> tuple[UploadRefusal | None, bool]:
        refusal = self.refusal()
        if refusal is not None:
            return refusal, False
        key = f"{job.trace_id}/{job.file.sha256}"
        known = tickets.get(key)
        if known is not None:
            known.followers += 1
            return None, False
        with self._cond:
            if key in self._stored:
                self._stored.move_to_end(key)
                return None, False
            if key in self._pending:
                tickets[key] = _Ticket(job, key, 0)
                return None, False
        charge = held if held is not None else self.hold(job.file)
        if charge is None:
            return "budget", False
        tickets[key] = _Ticket(job, key, charge)
        return None, held is not None

    def _enqueue(self, ticket: _Ticket) -> None:
        with self._cond:
            pending = self._pending.get(ticket.key)
            if pending is not None:
                pending.ticket.followers += ticket.followers + 1
                self.release(ticket.charge)
                return
            task = _Task(ticket, self._next_number)
            self._next_number += 1
            self._unsettled[task.number] = task
            aborting = self._aborting
            if not aborting:
                self._pending[ticket.key] = task
                self._queue.append(task)
                self._ensure_workers()
                self._cond.notify_all()
        if aborting:
            self._settle(task, False, "the upload was ended by shutdown")

    def _ensure_workers(self) -> None:
        """Starts workers for the queued tasks, up to the concurrency (called holding the lock)."""
        while self._active_workers < self._concurrency and self._active_workers < self._running + len(self._queue):
            self._active_workers += 1
            threading.Thread(target=self._work, name="svc-run-upload", daemon=True).start()

    def drain(self, timeout_seconds: float | None = None) -> bool:
        """Waits until every upload queued before the call has ended; True when they all did."""
        deadline = None if timeout_seconds is None else time.monotonic() + max(0.0, timeout_seconds)
        with self._cond:
            target = self._next_number
            while any(number < target for number in self._unsettled):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    def close(self) -> None:
        """Refuses further files; uploads already admitted go on."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def abort(self) -> None:
        """Refuses further files and ends every upload not yet done (they count as fallbacks)."""
        with self._cond:
            self._closed = True
            self._aborting = True
            tasks = list(self._unsettled.values())
            self._queue.clear()
        for task in tasks:
            task.aborted.set()
            self._settle(task, False, "the upload was ended by shutdown")

    def _work(self) -> None:
        while True:
            with self._cond:
                if not self._queue:
                    self._active_workers -= 1
                    return
                task = self._queue.popleft()
                self._running += 1
            try:
                stored, reason = self._upload(task)
            except Exception as error:
                _logger.debug("svc-run: an upload failed unexpectedly (%s)", type(error).__name__)
                stored, reason = False, "the upload failed unexpectedly"
            finally:
                with self._cond:
                    self._running -= 1
            self._settle(task, stored, reason)

    def _settle(self, task: _Task, stored: bool, reason: str) -> None:
        with self._cond:
            if task.settled:
                return
            task.settled = True
            self._unsettled.pop(task.number, None)
            if self._pending.get(task.ticket.key) is task:
                del self._pending[task.ticket.key]
            if stored:
                self._stored[task.ticket.key] = None
                if len(self._stored) > _REMEMBERED_STORED:
                    self._stored.popitem(last=False)
            self._cond.notify_all()
        self.release(task.ticket.charge)
        origin = task.ticket.job.origin
        try:
            if stored:
                self._sink.uploaded()
            else:
                self._sink.upload_fallback(origin, 1 + task.ticket.followers, reason)
        except Exception as error:
            _logger.debug("svc-run: an upload outcome was not counted (%s)", type(error).__name__)

    def _failure(self, step: str, outcome: StepOutcome) -> str:
        if isinstance(outcome, Aborted):
            return "the upload was ended by shutdown"
        if isinstance(outcome, SourceFailed):
            return str(outcome.error)
        code = f" ({outcome.code})" if isinstance(outcome, Unanswered) and outcome.code else ""
        return f"the service did not answer the {step}{code} after {UPLOAD_ATTEMPTS} attempts"

    def _post_json(self, path: str, body: dict[str, object]) -> HttpAnswer:
        return self._http.request(
            "POST",
            f"{self._base_url}{path}",
            headers={
                "authorization": f"Bearer {self._api_key}",
                "content-type": "application/json",
                "accept": "application/json",
            },
            body=json.dumps(body, separators=(",", ":")).encode("utf-8"),
            timeout_seconds=self._timeout_millis / 1000,
            max_body_bytes=_MAX_ANSWER_BYTES,
        )

    def _upload(self, task: _Task) -> tuple[bool, str]:
        job = task.ticket.job
        file = job.file
        aborted = task.aborted
        if isinstance(file.source, PathSource):
            # Checked before reserving as well as while streaming: a changed file costs nothing.
            state = file_state(file.source.path)
            if state is None:
                return False, str(UploadSourceError("unreadable"))
            if state != (file.source.size, file.source.mtime_ns):
                return False, str(UploadSourceError("changed"))
        reservation_body: dict[str, object] = {
            "traceId": job.trace_id,
            "sha256": file.sha256,
            "byteSize": file.size,
            "contentType": file.content_type,
            "key": file.key,
        }
        reserve = with_upload_retries(lambda: self._post_json(RESERVE_PATH, reservation_body), aborted, self._sleep)
        if not isinstance(reserve, Answered):
            return False, self._failure("reservation", reserve)
        status = reserve.answer.status
        if status in (404, 405):
            self._route_missing = True
            return False, f"the service has no upload route (HTTP {status})"
        if status != 200:
            return False, _refused_by("reservation", reserve.answer)
        reservation = read_reservation(_json_of(reserve.answer))
        if reservation is None:
            return False, "the service's reservation answer is not valid"
        if isinstance(reservation, Exists):
            return True, ""

        def put() -> HttpAnswer:
            seconds = put_deadline_seconds(self._timeout_millis, file.size)
            deadline = time.monotonic() + seconds
            return self._http.request(
                "PUT",
                reservation.url,
                headers=reservation.headers,
                body=upload_body(file, deadline),
                timeout_seconds=seconds,
                max_body_bytes=_MAX_ANSWER_BYTES,
            )

        uploaded = with_upload_retries(put, aborted, self._sleep)
        if not isinstance(uploaded, Answered):
            return False, self._failure("upload", uploaded)
        if uploaded.answer.status == 412:
            return True, ""
        if not 200 <= uploaded.answer.status <= 299:
            return False, _refused_by("upload", uploaded.answer)
        completion_body: dict[str, object] = {"traceId": job.trace_id, "sha256": file.sha256}
        complete = with_upload_retries(lambda: self._post_json(COMPLETE_PATH, completion_body), aborted, self._sleep)
        if not isinstance(complete, Answered):
            return False, self._failure("completion", complete)
        answer = _json_of(complete.answer)
        if complete.answer.status == 200 and isinstance(answer, dict) and answer.get("status") == "stored":
            return True, ""
        return False, _refused_by("completion", complete.answer)
