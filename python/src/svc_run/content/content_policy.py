"""The content policy of the export path (spec "Content policy rules" 1 to 3).

The redactor runs first on every string it covers; then, with capture off, recognized content
attributes, log bodies, status messages and exception text are removed. The policy returns copies
and never mutates its input; with capture on and no redactor, records pass through untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.trace import Link, Status

from ..export.exported_records import with_log_changes, with_span_changes
from ..options.svc_options import Redactor
from .content_attributes import is_content_attribute
from .redact_values import redact_attributes, redact_string, redact_value


class ContentPolicy:
    """Applies the content policy to one record; both methods may raise RecordRejectedError."""

    def __init__(self, capture_content: bool, redact: Redactor | None) -> None:
        self._strip = not capture_content
        self._redact = redact
        self._resources: dict[int, tuple[Resource, Resource]] = {}

    def _attributes_of(self, attributes: Mapping[str, Any] | None, prefix: str) -> Mapping[str, Any]:
        source: Mapping[str, Any] = attributes or {}
        if self._redact is not None:
            source = redact_attributes(source, prefix, self._redact)
        if self._strip and any(is_content_attribute(key) for key in source):
            return {key: value for key, value in source.items() if not is_content_attribute(key)}
        return source

    def _resource_of(self, resource: Resource) -> Resource:
        if self._redact is None:
            return resource
        cached = self._resources.get(id(resource))
        if cached is not None and cached[0] is resource:
            return cached[1]
        attributes = redact_attributes(resource.attributes, "resource.", self._redact)
        result = (
            resource
            if attributes is resource.attributes
            else Resource(cast(Any, dict(attributes)), resource.schema_url)
        )
        if len(self._resources) < 64:
            self._resources[id(resource)] = (resource, result)
        return result

    def span(self, span: ReadableSpan) -> ReadableSpan:
        """A copy of ``span`` as it may be exported (``span`` itself when nothing changes)."""
        if not self._strip and self._redact is None:
            return span
        original_attributes = span.attributes or {}
        attributes = self._attributes_of(original_attributes, "attributes.")
        events = [
            event
            if event.attributes is None
            or (following := self._attributes_of(event.attributes, f"events[{index}].")) is event.attributes
            else Event(event.name, dict(following), event.timestamp)
            for index, event in enumerate(span.events)
        ]
        links = [
            link
            if link.attributes is None
            or (following := self._attributes_of(link.attributes, f"links[{index}].")) is link.attributes
            else Link(link.context, dict(following))
            for index, link in enumerate(span.links)
        ]
        status = span.status
        description = status.description
        if description is not None:
            if self._strip:
                status = Status(status.status_code)
            elif self._redact is not None:
                status = Status(status.status_code, redact_string(description, "status.message", self._redact))
        resource = self._resource_of(span.resource)
        unchanged = (
            attributes is original_attributes
            and status is span.status
            and resource is span.resource
            and all(a is b for a, b in zip(events, span.events, strict=True))
            and all(a is b for a, b in zip(links, span.links, strict=True))
        )
        if unchanged:
            return span
        return with_span_changes(
            span, attributes=attributes, events=events, links=links, status=status, resource=resource
        )

    def log_record(self, record: ReadableLogRecord) -> ReadableLogRecord:
        """A copy of ``record`` as it may be exported (``record`` itself when nothing changes)."""
        if not self._strip and self._redact is None:
            return record
        log = record.log_record
        original_attributes = log.attributes or {}
        attributes = self._attributes_of(original_attributes, "attributes.")
        body: object = log.body
        if body is not None and self._redact is not None:
            body = redact_value(body, "body", self._redact)
        if self._strip:
            body = None
        resource = self._resource_of(record.resource)
        if attributes is original_attributes and body is log.body and resource is record.resource:
            return record
        return with_log_changes(record, attributes=attributes, body=body, resource=resource)
