"""The memory budget of uploads (spec "Limits": 128 MiB for values awaiting upload).

Every file whose bytes are in memory until it uploads counts by its decoded size: bytes sources,
UTF-8 text and base64 strings found in recorded values. A file streamed from disk counts nothing.
A file larger than the whole budget (a base64 string of up to 1 GB) is charged the whole budget, so
it is admitted only when nothing else is held. Memory held by admitted uploads is therefore at
most the budget or the single largest such value.
"""

from __future__ import annotations

import threading

from ..media_types import UPLOAD_BUDGET_BYTES, FileSource, PathSource


def held_bytes(source: FileSource, size: int) -> int:
    """The bytes a source keeps in memory until it uploads (0 for a file streamed from disk)."""
    return 0 if isinstance(source, PathSource) else size


class UploadBudget:
    """Bytes admitted against a fixed limit (thread-safe)."""

    def __init__(self, limit: int = UPLOAD_BUDGET_BYTES) -> None:
        self._limit = limit
        self._used = 0
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        """Bytes currently charged."""
        return self._used

    def take(self, size: int) -> int | None:
        """Charges ``size`` (at most the whole limit) when there is room; the charge, or ``None``."""
        charge = min(size, self._limit)
        with self._lock:
            if self._used + charge > self._limit:
                return None
            self._used += charge
            return charge

    def give(self, charge: int) -> None:
        """Gives back a charge of :meth:`take`."""
        with self._lock:
            self._used = max(0, self._used - charge)

    def after_fork(self) -> None:
        """In a forked child: nothing is held."""
        self._lock = threading.Lock()
        self._used = 0
