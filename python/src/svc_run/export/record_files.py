"""Files the client's helpers attach to a span or log record, kept until the record is exported.

Attachments placed in recorded values and recorded files with ``upload=True`` are listed in the
record's ``svc.blobs`` and uploaded when it is exported (if the record still holds them). Their
bytes count in the 128 MiB upload budget from the moment they are attached: a file attached when
the budget is full lets go of its bytes at once (its record still carries its digest, and the file
counts as a ``budget`` fallback when the record is exported). A charge is given back when the
record's files are taken for export, when the record is dropped, or when the record is garbage
collected without either (a span never ended).

Spans are keyed by the span object the processor receives when it ends. A log record does not
exist before it is emitted: the helper emits it inside :meth:`RecordFiles.emitting`, and the log
processor, called in the same thread by the logger, claims the files for the record it queues.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from ..media.media_types import BytesSource, FoundFile


@dataclass(frozen=True)
class FileHolder:
    """Where a file attached to a record is held: an attribute's value, or a ``svc.file`` event."""

    attribute: str | None = None
    event: Literal["svc.file"] | None = None


@dataclass(frozen=True)
class AttachedFile:
    """A file a helper attaches to a record."""

    file: FoundFile
    holder: FileHolder


@dataclass(frozen=True)
class RecordFile:
    """A file attached to a record, with its charge of the budget (``None``: refused, let go)."""

    file: FoundFile
    holder: FileHolder
    charge: int | None


class FileBudget(Protocol):
    """The upload budget, as the files of records waiting for export use it (the uploader's)."""

    def hold(self, file: FoundFile) -> int | None:
        """Charges the bytes ``file`` keeps in memory; ``None`` when there is no room."""

    def release(self, charge: int) -> None:
        """Gives back a charge of :meth:`hold`."""


_LET_GO = BytesSource(b"")

RecordKey = tuple[str, int, int]


def record_key(record: object) -> RecordKey:
    """The key of a record's files.

    A span by its IDs (the live span and the copy the processor receives when it ends are
    different objects), any other record by its identity.
    """
    context = getattr(record, "context", None)
    span_id = getattr(context, "span_id", None)
    trace_id = getattr(context, "trace_id", None)
    if isinstance(span_id, int) and isinstance(trace_id, int):
        return ("span", trace_id, span_id)
    return ("record", id(record), 0)


class _Entry:
    __slots__ = ("files", "finalizer")

    def __init__(self, files: list[RecordFile]) -> None:
        self.files = files
        self.finalizer: weakref.finalize[..., object] | None = None


class RecordFiles:
    """The files attached to records not yet exported."""

    def __init__(self, budget: FileBudget) -> None:
        self._budget = budget
        self._lock = threading.Lock()
        self._entries: dict[RecordKey, _Entry] = {}
        self._local = threading.local()

    def after_fork(self) -> None:
        """In a forked child: the parent's records are not exported here."""
        self._lock = threading.Lock()
        for entry in self._entries.values():
            if entry.finalizer is not None:
                entry.finalizer.detach()
        self._entries = {}
        self._local = threading.local()

    @property
    def any_held(self) -> bool:
        """Whether any record has files attached now."""
        return bool(self._entries)

    def set_attribute(self, record: object, attribute: str, files: Sequence[FoundFile]) -> None:
        """Sets the files held by ``attribute`` of ``record``, replacing those of an earlier value."""
        if not files and not self._entries:
            return  # most values hold no file, and most records none either
        key = record_key(record)
        with self._lock:
            entry = self._entries.get(key)
            held = list(entry.files) if entry is not None else None
        if held is None and not files:
            return
        kept: list[RecordFile] = []
        for file in held or []:
            if file.holder.attribute == attribute:
                self._give(file.charge)
            else:
                kept.append(file)
        kept.extend(self._charged(AttachedFile(file, FileHolder(attribute=attribute))) for file in files)
        self._set(record, kept)

    def add_event(self, record: object, file: FoundFile) -> None:
        """Adds a recorded file named by a ``svc.file`` event of ``record``."""
        added = self._charged(AttachedFile(file, FileHolder(event="svc.file")))
        with self._lock:
            entry = self._entries.get(record_key(record))
            held = list(entry.files) if entry is not None else []
        self._set(record, [*held, added])

    def ended(self, record: object) -> None:
        """The span ended: its files now live as long as ``record`` (the copy queued for export)."""
        if not self._entries:
            return
        with self._lock:
            entry = self._entries.get(record_key(record))
            if entry is not None:
                self._watch(record, entry)

    def holds(self, record: object) -> bool:
        """Whether files are attached to ``record``."""
        if not self._entries:
            return False
        with self._lock:
            return record_key(record) in self._entries

    def take(self, record: object) -> list[RecordFile]:
        """Takes the files of ``record`` for its export: their charges are the caller's now."""
        if not self._entries:
            return []
        with self._lock:
            entry = self._entries.pop(record_key(record), None)
        if entry is None:
            return []
        if entry.finalizer is not None:
            entry.finalizer.detach()
        return entry.files

    def release(self, files: Sequence[RecordFile]) -> None:
        """Gives back the charges of files taken from a record and not handed to the uploader."""
        for file in files:
            self._give(file.charge)

    def drop(self, record: object) -> None:
        """Lets go of the files of a record that will not be exported."""
        self.release(self.take(record))

    @contextmanager
    def emitting(self, files: Sequence[AttachedFile]) -> Iterator[None]:
        """A block in which a log record is emitted, with ``files`` offered to it."""
        outer: list[RecordFile] | None = getattr(self._local, "emitting", None)
        self._local.emitting = [self._charged(file) for file in files] if files else None
        try:
            yield
        finally:
            unclaimed: list[RecordFile] | None = self._local.emitting
            if unclaimed is not None:
                # No log processor of this client took them: let go.
                self.release(unclaimed)
            self._local.emitting = outer

    def claim(self, record: object) -> None:
        """Attaches the files of the emission in progress in this thread (if any) to ``record``."""
        offered: list[RecordFile] | None = getattr(self._local, "emitting", None)
        if offered is None:
            return
        self._local.emitting = None
        self._set(record, offered)

    def _charged(self, attached: AttachedFile) -> RecordFile:
        charge = self._budget.hold(attached.file)
        if charge is not None:
            return RecordFile(attached.file, attached.holder, charge)
        return RecordFile(replace(attached.file, source=_LET_GO), attached.holder, None)

    def _give(self, charge: int | None) -> None:
        if charge is not None and charge > 0:
            self._budget.release(charge)

    def _set(self, record: object, files: list[RecordFile]) -> None:
        key = record_key(record)
        with self._lock:
            entry = self._entries.get(key)
            if not files:
                if entry is not None:
                    del self._entries[key]
                    if entry.finalizer is not None:
                        entry.finalizer.detach()
                return
            if entry is None:
                entry = _Entry(files)
                self._entries[key] = entry
                self._watch(record, entry)
            else:
                entry.files = files

    def _watch(self, record: object, entry: _Entry) -> None:
        """Gives the entry's charges back when ``record`` is collected unexported (holding the lock)."""
        if entry.finalizer is not None:
            entry.finalizer.detach()
        key = record_key(record)

        def expire() -> None:
            with self._lock:
                if self._entries.get(key) is not entry:
                    return
                del self._entries[key]
            self.release(entry.files)

        try:
            entry.finalizer = weakref.finalize(record, expire)
        except TypeError:  # not weakly referable: kept until taken or dropped
            entry.finalizer = None
