"""The export report and issues of the spec ("Export report", "Export issue")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Signal: TypeAlias = Literal["traces", "logs"]
"""The two exported signals."""

IssueKind: TypeAlias = Literal["rejected", "failed", "dropped", "invalid", "warning"]
"""What an export issue reports; every kind but ``warning`` is a failure."""


@dataclass(frozen=True)
class ExportIssue:
    """A sanitized export diagnostic: never a key, a response body or recorded content."""

    sequence: int
    """Grows by one with every issue of a client."""
    signal: Signal
    kind: IssueKind
    count: int
    """Records (or files) concerned."""
    message: str
    status: int | None = None
    """HTTP status, when an answer had one."""


@dataclass(frozen=True)
class ExportStatus:
    """What a client has exported so far (``Svc.export_status``).

    Every count except the ``pending_*`` ones is cumulative over the client's life (in a forked
    child, over the child's life). Every record produced ends in exactly one of accepted, rejected,
    failed and dropped, and is pending until then.
    """

    accepted_spans: int = 0
    """Spans the service acknowledged."""
    accepted_logs: int = 0
    """Log records the service acknowledged."""
    rejected_spans: int = 0
    """Spans the service refused (partial rejections included) or a failing redactor rejected."""
    rejected_logs: int = 0
    """Log records the service refused or a failing redactor rejected."""
    failed_spans: int = 0
    """Spans whose export failed (no answer, retries exhausted, invalid acknowledgement)."""
    failed_logs: int = 0
    """Log records whose export failed."""
    dropped_spans: int = 0
    """Spans dropped because the queue (2,048 per signal, in flight included) was full."""
    dropped_logs: int = 0
    """Log records dropped because the queue was full."""
    pending_spans: int = 0
    """Spans queued or in flight now."""
    pending_logs: int = 0
    """Log records queued or in flight now."""
    upload_fallbacks: int = 0
    """Files that could not be uploaded and kept their digest or inline form instead."""
    uploaded_values: int = 0
    """Files stored under their trace (uploaded, or found already held there)."""
    issues: tuple[ExportIssue, ...] = field(default=())
    """The latest 128 issues, oldest first."""
    failure_sequence: int = 0
    """The sequence number of the latest failure issue (0 when none)."""
