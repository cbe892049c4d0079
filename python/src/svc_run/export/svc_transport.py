"""The transport: span and log record processors exporting to the service.

One shared account of what happened to every record, and the uploads of the files the records
list. It owns the client's background threads (two export workers, up to four upload workers),
restarts them in a forked child, and flushes at interpreter exit.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from collections.abc import Sequence

from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk.trace import ReadableSpan

from ..content.content_policy import ContentPolicy
from ..http.http_client import HttpClient
from ..media.upload.uploader import Uploader
from ..options.svc_options import ExportIssueCallback, Redactor, ResolvedOptions
from ..options.validate_options import validate_options
from .export_accounting import ExportAccounting
from .export_status import ExportStatus, Signal
from .log_record_processor import SvcLogRecordProcessor
from .media_export import MediaExport
from .otlp_sender import Sender
from .record_files import RecordFiles
from .signal_pipeline import PipelineSteps, SignalPipeline
from .span_processor import SvcSpanProcessor

OTLP_PATHS: dict[Signal, str] = {"traces": "/api/v1/otlp/v1/traces", "logs": "/api/v1/otlp/v1/logs"}
"""The OTLP/HTTP paths of the service, below its origin."""
_PROVIDER_SHUTDOWN_SECONDS = 30.0
EXIT_BUDGET_SECONDS = 5.0
"""At interpreter exit, records (then their uploads) are flushed for at most this long."""


def _encode_spans(batch: Sequence[ReadableSpan]) -> bytes:
    return encode_spans(batch).SerializeToString()  # type: ignore[no-any-return]


def _encode_logs(batch: Sequence[ReadableLogRecord]) -> bytes:
    return encode_logs(batch).SerializeToString()  # type: ignore[no-any-return]


class _Sink:
    """The uploader's counters go to the accounting."""

    def __init__(self, accounting: ExportAccounting) -> None:
        self._accounting = accounting

    def uploaded(self) -> None:
        self._accounting.uploaded()

    def upload_fallback(self, signal: Signal, count: int, reason: str) -> None:
        self._accounting.upload_fallback(signal, count, reason)


class SvcTransport:
    """The service's span and log record processors, and their diagnostics.

    Attach :attr:`span_processor` and :attr:`log_record_processor` to providers the application
    builds (the existing-provider form), or let :class:`~svc_run.Svc` build private providers.
    """

    def __init__(self, options: ResolvedOptions) -> None:
        """Use :func:`create_svc_transport`, which validates the options."""
        self.options = options
        self._accounting = ExportAccounting(options.on_export_issue)
        self._http = HttpClient()
        self._aborted = threading.Event()
        self._uploader = Uploader(
            http=self._http,
            base_url=options.base_url,
            api_key=options.api_key,
            timeout_millis=options.timeout_millis,
            sink=_Sink(self._accounting),
        )
        self._files = RecordFiles(self._uploader)
        self._policy = ContentPolicy(options.capture_content, options.redact)
        self._media = MediaExport(
            capture_content=options.capture_content,
            api_key=options.api_key,
            uploader=self._uploader,
            files=self._files,
            accounting=self._accounting,
        )
        self._spans: SignalPipeline[ReadableSpan] = SignalPipeline(
            "traces",
            self._accounting,
            PipelineSteps(
                prepare=lambda span: self._media.span(span, self._policy.span(span)),
                encode=_encode_spans,
                send=self._sender("traces").send,
                dropped=self._files.drop,
            ),
        )
        self._logs: SignalPipeline[ReadableLogRecord] = SignalPipeline(
            "logs",
            self._accounting,
            PipelineSteps(
                prepare=lambda record: self._media.log_record(record, self._policy.log_record(record)),
                encode=_encode_logs,
                send=self._sender("logs").send,
                dropped=self._files.drop,
            ),
        )
        self._shutdown_lock = threading.Lock()
        self._shut_down = False
        self.span_processor = SvcSpanProcessor(self)
        """Attach to a tracer provider the application builds."""
        self.log_record_processor = SvcLogRecordProcessor(self)
        """Attach to a logger provider the application builds."""
        _register_process_hooks(self)

    def _sender(self, signal: Signal) -> Sender:
        return Sender(
            http=self._http,
            url=f"{self.options.base_url}{OTLP_PATHS[signal]}",
            api_key=self.options.api_key,
            timeout_millis=self.options.timeout_millis,
            aborted_event=lambda: self._aborted,
        )

    def __repr__(self) -> str:
        return f"SvcTransport(base_url={self.options.base_url!r}, service_name={self.options.service_name!r})"

    @property
    def export_status(self) -> ExportStatus:
        """Cumulative counters, what is pending now, and the latest 128 issues."""
        return self._accounting.status()

    def flush_signal(self, signal: Signal, timeout_seconds: float | None) -> bool:
        """Exports one signal's queue, then waits for the uploads queued before."""
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
        pipeline = self._spans if signal == "traces" else self._logs
        done = pipeline.flush(timeout_seconds)
        remaining = None if deadline is None else deadline - time.monotonic()
        return self._uploader.drain(remaining) and done

    def flush(self, timeout_seconds: float | None = None) -> bool:
        """Exports both signals' queues, then waits for the uploads queued before them."""
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds

        def remaining() -> float | None:
            return None if deadline is None else deadline - time.monotonic()

        spans = self._spans.flush(remaining())
        logs = self._logs.flush(remaining())
        uploads = self._uploader.drain(remaining())
        return spans and logs and uploads

    def shutdown_signal(self, signal: Signal) -> None:
        """Flushes one signal (for at most 30 s) and refuses further records of it."""
        if self._shut_down:
            return
        pipeline = self._spans if signal == "traces" else self._logs
        pipeline.flush(_PROVIDER_SHUTDOWN_SECONDS)
        pipeline.close()
        self._uploader.drain(_PROVIDER_SHUTDOWN_SECONDS)

    def shutdown(self, timeout_seconds: float | None = None) -> bool:
        """Flushes, refuses further records and files, waits for the uploads; True when all ended."""
        done = self.flush(timeout_seconds)
        with self._shutdown_lock:
            self._shut_down = True
        self._spans.close()
        self._logs.close()
        self._uploader.close()
        return done

    def abort(self) -> None:
        """Ends exports and uploads not done yet: records count as failed, files as fallbacks."""
        self._aborted.set()
        self._spans.abort()
        self._logs.abort()
        self._uploader.abort()
        self._http.close()

    def failure_sequence(self) -> int:
        """The sequence number of the latest failure issue (0 when none)."""
        return self._accounting.failure_sequence()

    def _after_fork(self) -> None:
        """In a forked child: fresh locks, queues, counters, connections; threads start on demand."""
        self._aborted = threading.Event()
        self._shutdown_lock = threading.Lock()
        self._accounting.after_fork()
        self._http.after_fork()
        self._uploader.after_fork()
        self._files.after_fork()
        self._spans.after_fork()
        self._logs.after_fork()

    def _at_exit(self) -> None:
        """Interpreter exit: export what is left, within the exit budget."""
        if self._shut_down:
            return
        try:
            if not self.shutdown(EXIT_BUDGET_SECONDS):
                self.abort()
        except Exception:  # never disturb the interpreter's exit
            return


def _register_process_hooks(transport: SvcTransport) -> None:
    """Fork and exit hooks holding the transport weakly (a collected transport is skipped)."""
    reference = weakref.ref(transport)

    def after_fork_in_child() -> None:
        target = reference()
        if target is not None:
            target._after_fork()

    def at_exit() -> None:
        target = reference()
        if target is not None:
            target._at_exit()

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=after_fork_in_child)
    atexit.register(at_exit)


def create_svc_transport(
    *,
    api_key: str,
    service_name: str,
    capture_content: bool,
    base_url: str | None = None,
    service_version: str | None = None,
    timeout_millis: int | None = None,
    redact: Redactor | None = None,
    on_export_issue: ExportIssueCallback | None = None,
) -> SvcTransport:
    """Creates the service's span and log record processors, for applications that build providers.

    Raises:
        InvalidOptionError: an option breaks its rule (a ``TypeError`` and a ``ValueError``).

    Example:
        >>> transport = create_svc_transport(api_key=key, service_name="chat", capture_content=False)
        >>> provider = TracerProvider()
        >>> provider.add_span_processor(transport.span_processor)
    """
    return SvcTransport(
        validate_options(
            api_key=api_key,
            service_name=service_name,
            capture_content=capture_content,
            base_url=base_url,
            service_version=service_version,
            timeout_millis=timeout_millis,
            redact=redact,
            on_export_issue=on_export_issue,
        )
    )
