"""The media step of the export path, after the content policy.

Spec "Automatic capture of files", "Events" 2, and "Additional behavior tied to limits": inline
files in scanned attributes are replaced by their digest form and listed in the record's
``svc.blobs``, together with the attachments and recorded files the helpers attached; their bytes
are queued for upload while the record is exported at once with its references.

Who uploads: spans, and log records correlated with a span that are ``gen_ai.*`` events. A file
uploads when content capture is on, the key is an ordinary project key (not ``svc_setup_…``), the
uploader is open, the 128 MiB budget has room and the record lists fewer than 64 files. A refused
file counts in ``upload_fallbacks``; it keeps its digest without an entry in
``gen_ai.input.messages``, ``gen_ai.output.messages`` and ``ai.prompt.messages``, and its bytes
inline elsewhere. Span events, links and resources, and log records without a span, never upload:
their media up to 64 KiB stays as recorded, larger media becomes its digest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeAlias

from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.trace import Link

from ..content.content_attributes import is_scanned_attribute
from ..media.media_types import (
    BLOBS_ATTRIBUTE,
    MAX_BLOB_ENTRIES,
    TEXT_INLINE_LIMIT,
    DecideFile,
    FileDecision,
    FoundFile,
)
from ..media.scan.json.js_text import json_string
from ..media.scan.scan_attribute import ScanResult, attribute_may_hold_files, scan_attribute
from ..media.scan.scan_structured import scan_structured
from ..media.upload.upload_job import UploadJob, UploadRefusal
from ..media.upload.uploader import UploadBatch, Uploader
from .export_accounting import ExportAccounting
from .export_status import Signal
from .exported_records import with_log_changes, with_span_changes
from .record_files import RecordFile, RecordFiles

SETUP_KEY_PREFIX = "svc_setup_"
"""The prefix of setup credentials, which upload no files."""
MESSAGE_ATTRIBUTES = frozenset({"gen_ai.input.messages", "gen_ai.output.messages", "ai.prompt.messages"})
"""Attributes where a refused file keeps its digest (elsewhere it keeps its bytes)."""
_INVALID_TRACE_ID = 0

Refusal: TypeAlias = UploadRefusal | Literal["setup-key", "entries", "uncorrelated"]

_REFUSALS: dict[str, str] = {
    "setup-key": "the key is a setup credential (svc_setup_…), which uploads no files",
    "closed": "uploads were ended by shutdown",
    "no-route": "the service has no upload route",
    "budget": "the 128 MiB memory budget for uploads was full",
    "entries": "the record already lists 64 files in svc.blobs",
    "uncorrelated": "the log record is not correlated with a span",
}
_logger = logging.getLogger("svc_run")


def _never_upload(file: FoundFile) -> FileDecision:
    """Records that never upload: media up to 64 KiB stays, larger media becomes its digest."""
    return "digest" if file.size > TEXT_INLINE_LIMIT else "keep"


def blob_entry(file: FoundFile) -> str:
    """One compact JSON entry of ``svc.blobs``, as the TypeScript SDK writes it."""
    entry = (
        f'{{"key":{json_string(file.key)},"sha256":"{file.sha256}","size":{file.size},'
        f'"content_type":{json_string(file.content_type)}'
    )
    if file.name is not None:
        entry += f',"name":{json_string(file.name)}'
    return entry + "}"


def _existing_entries(value: object) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [entry for entry in value if isinstance(entry, str)]
    return []


class _RecordUploads:
    """The files of one record: its ``svc.blobs`` entries, admissions and refusals."""

    def __init__(
        self, uploader: Uploader, trace_id: str, origin: Signal, refusal: Refusal | None, existing: object
    ) -> None:
        self._uploader = uploader
        self._trace_id = trace_id
        self._origin: Signal = origin
        self._refusal = refusal
        self._existing = existing
        self._entries: list[str] | None = None
        self._added = 0
        self._refusals: dict[str, int] = {}

    @property
    def entries(self) -> list[str] | None:
        """The record's ``svc.blobs``, when this step added entries."""
        return self._entries if self._added > 0 else None

    def _listed(self) -> list[str]:
        if self._entries is None:
            self._entries = _existing_entries(self._existing)[:MAX_BLOB_ENTRIES]
        return self._entries

    def _add(self, entry: str) -> None:
        self._listed().append(entry)
        self._added += 1

    def scan(self, scan: Callable[[DecideFile], ScanResult], refused: DecideFile) -> ScanResult:
        """Scans one value: admitted files are listed and queued when the value changed."""
        batch: UploadBatch | None = None
        listed: list[str] = []

        def decide(file: FoundFile) -> FileDecision:
            nonlocal batch
            if batch is None:
                batch = self._uploader.batch()
            refusal = self._admit(batch, file, len(listed))
            if refusal is None:
                listed.append(blob_entry(file))
                return "upload"
            self._refuse(refusal)
            return refused(file)

        try:
            result = scan(decide)
        except BaseException:
            if batch is not None:
                batch.cancel()
            raise
        if result.changed:
            if batch is not None:
                batch.commit()
            for entry in listed:
                self._add(entry)
        elif batch is not None:
            batch.cancel()
        return result

    def scan_value(self, scan: Callable[[DecideFile], tuple[object, bool]], refused: DecideFile) -> object:
        """Like :meth:`scan`, for a structured value (a log body)."""
        holder: list[object] = []

        def text_scan(decide: DecideFile) -> ScanResult:
            value, changed = scan(decide)
            holder.append(value)
            return ScanResult("", changed)

        self.scan(text_scan, refused)
        return holder[0]

    def attach(self, files: Sequence[RecordFile], held: Callable[[RecordFile], bool]) -> None:
        """Lists and queues the files the helpers attached that the record still holds."""
        if not files:
            return
        batch = self._uploader.batch()
        for attached in files:
            if not held(attached):
                if attached.charge is not None:
                    self._uploader.release(attached.charge)
                continue
            refusal: Refusal | None
            if attached.charge is None:
                refusal = self._refusal or "budget"
            else:
                refusal = self._admit(batch, attached.file, 0, attached.charge)
            if refusal is None:
                self._add(blob_entry(attached.file))
            else:
                self._refuse(refusal)
        batch.commit()

    def report(self, accounting: ExportAccounting) -> None:
        """Counts the refused files as fallbacks, one issue per reason."""
        for refusal, count in self._refusals.items():
            accounting.upload_fallback(self._origin, count, _REFUSALS[refusal])

    def _admit(self, batch: UploadBatch, file: FoundFile, listed: int, held: int | None = None) -> Refusal | None:
        refusal: Refusal | None = self._refusal
        if refusal is None and len(self._listed()) + listed >= MAX_BLOB_ENTRIES:
            refusal = "entries"
        if refusal is not None:
            if held is not None:
                self._uploader.release(held)
            return refusal
        return batch.offer(UploadJob(self._trace_id, file, self._origin), held)

    def _refuse(self, refusal: Refusal) -> None:
        self._refusals[refusal] = self._refusals.get(refusal, 0) + 1


def _still_held(file: RecordFile, attributes: Mapping[str, Any], events: Sequence[Event]) -> bool:
    """Whether the exported record still holds an attached file (the redactor may have removed it)."""
    if file.holder.attribute is not None:
        value = attributes.get(file.holder.attribute)
        return isinstance(value, str) and f'"sha256":"{file.file.sha256}"' in value
    return any(
        event.name == "svc.file" and (event.attributes or {}).get("svc.file.sha256") == file.file.sha256
        for event in events
    )


def _may_hold(attributes: Mapping[str, Any]) -> list[str]:
    """The scanned attributes whose values may hold files (most records have none).

    Names are looked at first: an SDK span's attributes are read one by one through a lock.
    """
    found: list[str] = []
    for name in attributes:
        if is_scanned_attribute(name):
            value = attributes[name]
            if type(value) is str and attribute_may_hold_files(name, value, attributes):
                found.append(name)
    return found


def _scan_each(attributes: Mapping[str, Any], scan: Callable[[str, str], ScanResult]) -> Mapping[str, Any]:
    copy: dict[str, Any] | None = None
    for name in _may_hold(attributes):
        value = attributes[name]
        result = scan(name, value)
        if result.changed:
            if copy is None:
                copy = dict(attributes)
            copy[name] = result.value
    return attributes if copy is None else copy


def _scan_never_uploading(attributes: Mapping[str, Any]) -> Mapping[str, Any]:
    return _scan_each(attributes, lambda name, value: scan_attribute(name, value, _never_upload, attributes))


class MediaExport:
    """The media step of one client: returns the record to export (a copy when anything changed)."""

    def __init__(
        self,
        *,
        capture_content: bool,
        api_key: str,
        uploader: Uploader,
        files: RecordFiles,
        accounting: ExportAccounting,
    ) -> None:
        self._capture_content = capture_content
        self._setup_key = api_key.startswith(SETUP_KEY_PREFIX)
        self._uploader = uploader
        self._files = files
        self._accounting = accounting
        self._resources: dict[int, tuple[Resource, Resource]] = {}

    def _resource_of(self, resource: Resource) -> Resource:
        cached = self._resources.get(id(resource))
        if cached is not None and cached[0] is resource:
            return cached[1]
        attributes = _scan_never_uploading(resource.attributes)
        result = resource if attributes is resource.attributes else Resource(dict(attributes), resource.schema_url)
        if len(self._resources) < 64:
            self._resources[id(resource)] = (resource, result)
        return result

    def _scan_attributes(self, attributes: Mapping[str, Any], uploads: _RecordUploads) -> Mapping[str, Any]:
        def scan(name: str, value: str) -> ScanResult:
            refused: DecideFile = (lambda _file: "digest") if name in MESSAGE_ATTRIBUTES else (lambda _file: "keep")
            return uploads.scan(lambda decide: scan_attribute(name, value, decide, attributes), refused)

        return _scan_each(attributes, scan)

    def _guarded(self, signal: Signal, original: object, prepared: Any, step: Callable[[], Any]) -> Any:
        if not self._capture_content:
            self._files.drop(original)
            return prepared
        try:
            return step()
        except Exception as error:
            # Files not taken yet give their budget back; the record goes without them.
            self._files.drop(original)
            self._accounting.raise_issue(
                signal,
                "warning",
                0,
                f"the files of a record were not read: the media scan failed ({type(error).__name__})",
            )
            return prepared

    def span(self, original: ReadableSpan, prepared: ReadableSpan) -> ReadableSpan:
        """The span to export: files in digest form and listed, their uploads queued."""

        def step() -> ReadableSpan:
            if (
                not prepared.events
                and not prepared.links
                and not self._files.holds(original)
                and not _may_hold(prepared.attributes or {})
                and self._resource_of(prepared.resource) is prepared.resource
            ):
                return prepared  # nothing to read: the record goes as it is
            context = prepared.context
            trace_id = format(context.trace_id if context is not None else 0, "032x")
            original_attributes: Mapping[str, Any] = prepared.attributes or {}
            uploads = _RecordUploads(
                self._uploader,
                trace_id,
                "traces",
                "setup-key" if self._setup_key else None,
                original_attributes.get(BLOBS_ATTRIBUTE),
            )
            attributes = self._scan_attributes(original_attributes, uploads)
            events: Sequence[Event] = [self._event_of(event) for event in prepared.events]
            uploads.attach(self._files.take(original), lambda f: _still_held(f, attributes, events))
            entries = uploads.entries
            if entries is not None:
                attributes = {**attributes, BLOBS_ATTRIBUTE: tuple(entries)}
            uploads.report(self._accounting)
            links: Sequence[Link] = [self._link_of(link) for link in prepared.links]
            resource = self._resource_of(prepared.resource)
            unchanged = (
                attributes is original_attributes
                and resource is prepared.resource
                and all(a is b for a, b in zip(events, prepared.events, strict=True))
                and all(a is b for a, b in zip(links, prepared.links, strict=True))
            )
            if unchanged:
                return prepared
            return with_span_changes(prepared, attributes=attributes, events=events, links=links, resource=resource)

        result: ReadableSpan = self._guarded("traces", original, prepared, step)
        return result

    def _event_of(self, event: Event) -> Event:
        if not event.attributes:
            return event
        attributes = _scan_never_uploading(event.attributes)
        return event if attributes is event.attributes else Event(event.name, dict(attributes), event.timestamp)

    def _link_of(self, link: Link) -> Link:
        if not link.attributes:
            return link
        attributes = _scan_never_uploading(link.attributes)
        return link if attributes is link.attributes else Link(link.context, dict(attributes))

    def log_record(self, original: ReadableLogRecord, prepared: ReadableLogRecord) -> ReadableLogRecord:
        """The log record to export: files in digest form and listed, their uploads queued."""

        def step() -> ReadableLogRecord:
            log = prepared.log_record
            resource = self._resource_of(prepared.resource)
            event_name = log.event_name or ""
            gen_ai_event = event_name.startswith("gen_ai.")
            if not gen_ai_event and not self._files.holds(original):
                return prepared if resource is prepared.resource else with_log_changes(prepared, resource=resource)
            trace_id = log.trace_id or _INVALID_TRACE_ID
            correlated = trace_id != _INVALID_TRACE_ID
            original_attributes: Mapping[str, Any] = log.attributes or {}
            refusal: Refusal | None = "setup-key" if self._setup_key else (None if correlated else "uncorrelated")
            uploads = _RecordUploads(
                self._uploader, format(trace_id, "032x"), "logs", refusal, original_attributes.get(BLOBS_ATTRIBUTE)
            )
            attributes = original_attributes
            body: object = log.body
            if gen_ai_event and correlated:
                attributes = self._scan_attributes(attributes, uploads)
                if isinstance(body, (dict, list, tuple)):
                    structured = body

                    def scan_body(decide: DecideFile) -> tuple[object, bool]:
                        result = scan_structured(structured, "body", decide)
                        return result.value, result.changed

                    body = uploads.scan_value(scan_body, _never_upload)
            elif gen_ai_event:
                attributes = _scan_never_uploading(attributes)
                if isinstance(body, (dict, list, tuple)):
                    body = scan_structured(body, "body", _never_upload).value
            uploads.attach(self._files.take(original), lambda f: _still_held(f, attributes, ()))
            entries = uploads.entries
            if entries is not None:
                attributes = {**attributes, BLOBS_ATTRIBUTE: tuple(entries)}
            uploads.report(self._accounting)
            if attributes is original_attributes and body is log.body and resource is prepared.resource:
                return prepared
            return with_log_changes(prepared, attributes=attributes, body=body, resource=resource)

        result: ReadableLogRecord = self._guarded("logs", original, prepared, step)
        return result
