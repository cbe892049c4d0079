"""An upload job: a file of a record of a trace, whose bytes go to the service after export."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

from ...export.export_status import Signal
from ..media_types import FoundFile

UploadRefusal: TypeAlias = Literal["closed", "no-route", "budget"]
"""Why a file was refused at export instead of being admitted for upload."""


@dataclass(frozen=True)
class UploadJob:
    """One file to upload under one trace."""

    trace_id: str
    """32 lowercase hex characters: the OpenTelemetry trace ID of the record."""
    file: FoundFile
    origin: Signal = "traces"
    """The signal of the record that lists the file (its fallback issues name it)."""


class UploadSink(Protocol):
    """Where the counters and issues of uploads go (the client's accounting)."""

    def uploaded(self) -> None:
        """A file is stored under its trace (uploaded now, or already held there)."""

    def upload_fallback(self, signal: Signal, count: int, reason: str) -> None:
        """``count`` files could not be uploaded; ``reason`` is the SDK's own words."""
