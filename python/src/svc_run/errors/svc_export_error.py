"""The error of :meth:`svc_run.Svc.flush` when records were rejected, failed or dropped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .svc_error import SvcError

if TYPE_CHECKING:
    from ..export.export_status import ExportIssue, ExportStatus


class SvcExportError(SvcError):
    """A flush found export failures since the previous flush.

    ``issues`` holds only the failures new to this call (or of in-flight work it shared);
    ``report`` keeps the cumulative counters. Both are snapshots taken when the error is raised.
    """

    def __init__(self, message: str, issues: tuple[ExportIssue, ...], report: ExportStatus) -> None:
        super().__init__(message)
        self.issues = issues
        self.report = report

    def __repr__(self) -> str:
        return f"SvcExportError({self.message!r}, issues={len(self.issues)})"
