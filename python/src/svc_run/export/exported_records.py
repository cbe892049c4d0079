"""Copies of spans and log records as they are exported, keeping the originals' dropped counts."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.trace import Link, Status


class ExportedSpan(ReadableSpan):
    """A span as exported: new attributes, events, links, status or resource; same dropped counts."""

    def __init__(
        self,
        original: ReadableSpan,
        *,
        attributes: Mapping[str, Any],
        events: Sequence[Event],
        links: Sequence[Link],
        status: Status,
        resource: Resource,
    ) -> None:
        super().__init__(
            name=original.name,
            context=original.context,
            parent=original.parent,
            resource=resource,
            attributes=attributes,
            events=events,
            links=links,
            kind=original.kind,
            status=status,
            start_time=original.start_time,
            end_time=original.end_time,
            instrumentation_scope=original.instrumentation_scope,
        )
        self._original_dropped = (original.dropped_attributes, original.dropped_events, original.dropped_links)

    @property
    def dropped_attributes(self) -> int:
        """As the original span counted them: removal by policy is not a limit drop."""
        return self._original_dropped[0]

    @property
    def dropped_events(self) -> int:
        """As the original span counted them."""
        return self._original_dropped[1]

    @property
    def dropped_links(self) -> int:
        """As the original span counted them."""
        return self._original_dropped[2]


def with_span_changes(
    span: ReadableSpan,
    *,
    attributes: Mapping[str, Any] | None = None,
    events: Sequence[Event] | None = None,
    links: Sequence[Link] | None = None,
    status: Status | None = None,
    resource: Resource | None = None,
) -> ReadableSpan:
    """A copy of ``span`` with the given parts replaced (``None`` keeps the span's own)."""
    return ExportedSpan(
        span,
        attributes=span.attributes or {} if attributes is None else attributes,
        events=span.events if events is None else events,
        links=span.links if links is None else links,
        status=span.status if status is None else status,
        resource=span.resource if resource is None else resource,
    )


@dataclass(frozen=True)
class ExportedLogRecord(ReadableLogRecord):
    """A log record as exported, keeping the original's dropped-attribute count."""

    original_dropped: int = 0

    # Identity, not field equality: records are keys of the files attached to them.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    @property
    def dropped_attributes(self) -> int:
        """As the original record counted them."""
        return self.original_dropped


def snapshot_log_record(record: Any) -> ReadableLogRecord:
    """A read-only copy of an emitted record (a ``ReadWriteLogRecord``), taken in ``on_emit``."""
    log_record = copy.copy(record.log_record)
    attributes = record.log_record.attributes
    log_record.attributes = dict(attributes) if attributes else {}
    return ExportedLogRecord(
        log_record=log_record,
        resource=record.resource,
        instrumentation_scope=record.instrumentation_scope,
        limits=getattr(record, "limits", None),
        original_dropped=record.dropped_attributes,
    )


def with_log_changes(
    record: ReadableLogRecord,
    *,
    attributes: Mapping[str, Any] | None = None,
    body: object = ...,
    resource: Resource | None = None,
) -> ReadableLogRecord:
    """A copy of ``record`` with the given parts replaced (``body=...`` keeps the record's own)."""
    log_record = copy.copy(record.log_record)
    if attributes is not None:
        log_record.attributes = dict(attributes)
    if body is not ...:
        log_record.body = body  # type: ignore[assignment]
    return ExportedLogRecord(
        log_record=log_record,
        resource=record.resource if resource is None else resource,
        instrumentation_scope=record.instrumentation_scope,
        limits=record.limits,
        original_dropped=record.dropped_attributes,
    )
