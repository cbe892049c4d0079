"""The service's log record processor: queues every emitted log record into the log pipeline.

The record is copied when it is emitted (later processors may change theirs), with the files a
helper attached while emitting it. A flush sends the queued records, then waits for the uploads
of files queued before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opentelemetry.sdk._logs import LogRecordProcessor, ReadWriteLogRecord

from .exported_records import snapshot_log_record

if TYPE_CHECKING:
    from .svc_transport import SvcTransport


class SvcLogRecordProcessor(LogRecordProcessor):
    """Queues emitted log records for export to the service."""

    def __init__(self, transport: SvcTransport) -> None:
        self._transport = transport

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        """Queues a copy of ``log_record`` with the files attached while it was emitted."""
        record = snapshot_log_record(log_record)
        self._transport._files.claim(record)
        self._transport._logs.add(record)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Exports what is queued, then waits for the uploads queued before; True when all ended."""
        return self._transport.flush_signal("logs", timeout_millis / 1000)

    def shutdown(self) -> None:
        """Flushes, then refuses further records (called by the provider's own shutdown)."""
        self._transport.shutdown_signal("logs")
