"""The tracing client ``Svc``: spans and logs with the service's conventions.

Exported by its transport; flushes with booleans (or an export report), the connection check,
trace verification and reading files back. It never registers anything globally: it builds
private tracer and logger providers (or attaches to the application's), and its spans become the
current span of the OpenTelemetry context only inside their ``with`` blocks.
"""

from __future__ import annotations

import inspect
import math
import os
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, TypeVar, overload

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.version import __version__ as otel_sdk_version
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer

from .._version import SDK_SCOPE, SDK_VERSION
from ..connection.check_connection import check_connection
from ..connection.project_connection import ProjectConnection
from ..errors.invalid_option_error import InvalidOptionError
from ..errors.svc_export_error import SvcExportError
from ..export.export_status import ExportStatus, Signal
from ..export.record_files import AttachedFile, FileHolder
from ..export.svc_transport import SvcTransport
from ..media.attachment.recorded_file import FILE_EVENT, FileRole, NotRecorded, recorded_file
from ..media.media_types import FoundFile
from ..media.read.media_reader import MediaReader
from ..options.svc_options import ExportIssueCallback, Redactor
from ..options.validate_options import validate_options
from ..verify.trace_receipt import TraceVerification
from ..verify.verify_trace import verify_trace
from .attribute_names import (
    ATTR_ERROR_TYPE,
    ATTR_INPUT_MESSAGES,
    ATTR_MCP_SERVER_NAME,
    ATTR_OPERATION_NAME,
    ATTR_OUTPUT_MESSAGES,
    ATTR_SYSTEM_INSTRUCTIONS,
    ATTR_TOOL_CALL_ARGUMENTS,
    ATTR_TOOL_CALL_RESULT,
    ATTR_TOOL_NAME,
    INFERENCE_DETAILS_EVENT,
)
from .context_keys import CURRENT_HANDLE
from .helper_content import UNSET, PlacedAttachment, helper_content
from .mcp_server_name import mcp_server_name
from .model_call import ModelScope, model_attributes, validate_model_call
from .own_providers import own_providers
from .span_handle import SpanHandle
from .span_options import validate_span_options
from .span_scope import SpanScope

T = TypeVar("T")

DEFAULT_FLUSH_TIMEOUT_MILLIS = 30_000
"""Default ``timeout_millis`` of ``force_flush`` and ``shutdown`` (as OpenTelemetry's)."""
DEFAULT_SAFE_DEADLINE_MILLIS = 1_000
"""Default deadline of ``force_flush_safe`` and ``shutdown_safe``: 1 second."""


def _error_type(error: BaseException) -> str:
    return type(error).__name__ or "Exception"


def _seconds(millis: object, name: str) -> float | None:
    if millis is None:
        return None
    if isinstance(millis, bool) or not isinstance(millis, (int, float)) or millis < 0 or math.isnan(millis):
        raise InvalidOptionError(f"{name} must be a number of milliseconds of at least 0; got {millis!r}")
    return float(millis) / 1000


class Svc:
    """The tracing client. Create one per serving process, at start-up (after fork, see the README).

    Two forms:

    - ``Svc(api_key=..., service_name=..., capture_content=...)`` builds private tracer and logger
      providers (never registered globally) exporting to the service.
    - ``Svc(transport=..., tracer_provider=..., logger_provider=...)`` uses the application's
      providers, to which ``transport.span_processor`` and ``transport.log_record_processor`` were
      attached (the existing-provider form); the application owns their lifecycle.

    Raises:
        InvalidOptionError: an option breaks its rule (a ``TypeError`` and a ``ValueError``).

    Example:
        >>> svc = Svc(api_key=os.environ["SVC_API_KEY"], service_name="chat-api", capture_content=True)
        >>> with svc.span("chat turn", input={"question": question}, session_id=session) as span:
        ...     span.set_output(answer(question))
        >>> svc.force_flush()
    """

    @overload
    def __init__(
        self,
        *,
        api_key: str,
        service_name: str,
        capture_content: bool,
        base_url: str | None = None,
        service_version: str | None = None,
        timeout_millis: int | None = None,
        redact: Redactor | None = None,
        on_export_issue: ExportIssueCallback | None = None,
    ) -> None: ...

    @overload
    def __init__(self, *, transport: SvcTransport, tracer_provider: Any, logger_provider: Any) -> None: ...

    def __init__(
        self,
        *,
        api_key: object = None,
        service_name: object = None,
        capture_content: object = None,
        base_url: object = None,
        service_version: object = None,
        timeout_millis: object = None,
        redact: object = None,
        on_export_issue: object = None,
        transport: object = None,
        tracer_provider: object = None,
        logger_provider: object = None,
    ) -> None:
        if transport is not None or tracer_provider is not None or logger_provider is not None:
            if not isinstance(transport, SvcTransport):
                raise InvalidOptionError("transport must be made by create_svc_transport(...)")
            for name, provider, method in (
                ("tracer_provider", tracer_provider, "get_tracer"),
                ("logger_provider", logger_provider, "get_logger"),
            ):
                if not callable(getattr(provider, method, None)) or not callable(
                    getattr(provider, "force_flush", None)
                ):
                    raise InvalidOptionError(f"{name} must expose {method}() and force_flush(timeout_millis)")
            self._transport = transport
            self._tracer_provider: Any = tracer_provider
            self._logger_provider: Any = logger_provider
            self._owns_providers = False
        else:
            options = validate_options(
                api_key=api_key,
                service_name=service_name,
                capture_content=capture_content,
                base_url=base_url,
                service_version=service_version,
                timeout_millis=timeout_millis,
                redact=redact,
                on_export_issue=on_export_issue,
            )
            self._transport = SvcTransport(options)
            attributes: dict[str, str] = {
                "service.name": options.service_name,
                "telemetry.sdk.language": "python",
                "telemetry.sdk.name": "opentelemetry",
                "telemetry.sdk.version": _otel_sdk_version(),
            }
            if options.service_version is not None:
                attributes["service.version"] = options.service_version
            tracer_provider_own, logger_provider_own = own_providers(
                Resource(attributes), self._transport.span_processor, self._transport.log_record_processor
            )
            self._tracer_provider = tracer_provider_own
            self._logger_provider = logger_provider_own
            self._owns_providers = True
        resolved = self._transport.options
        self._capture_content = resolved.capture_content
        self._tracer: Tracer = self._tracer_provider.get_tracer(SDK_SCOPE, SDK_VERSION)
        self._logger: Any = self._logger_provider.get_logger(SDK_SCOPE, SDK_VERSION)
        self._reported_lock = threading.Lock()
        self._reported_through = 0
        self._shut_down = False
        self.media = MediaReader(resolved.endpoint, self._transport._http)
        """Reads recorded files back (``fetch``, ``resolve``); needs a Read or Read and write key."""

    def __repr__(self) -> str:
        options = self._transport.options
        return f"Svc(service_name={options.service_name!r}, base_url={options.base_url!r})"

    @property
    def transport(self) -> SvcTransport:
        """The transport exporting this client's spans and logs."""
        return self._transport

    @property
    def tracer(self) -> Tracer:
        """An OpenTelemetry tracer of the client's provider (spans it starts are exported too)."""
        return self._tracer

    @property
    def capture_content(self) -> bool:
        """Whether recorded content (messages, inputs, outputs) is exported."""
        return self._capture_content

    @property
    def export_status(self) -> ExportStatus:
        """Cumulative counters, what is pending now, and the latest 128 issues."""
        return self._transport.export_status

    def get_context(self) -> Context:
        """The context integrations should use as an explicit parent: the current one."""
        return otel_context.get_current()

    def current_span(self) -> SpanHandle | None:
        """The handle of the innermost ``svc.span`` in the current context, if any."""
        handle = CURRENT_HANDLE.get()
        return handle if isinstance(handle, SpanHandle) else None

    # Spans ------------------------------------------------------------------------------------------

    def span(
        self,
        name: str,
        *,
        kind: SpanKind = SpanKind.INTERNAL,
        attributes: Mapping[str, Any] | None = None,
        input: object = UNSET,
        session_id: str | None = None,
        user_id: str | None = None,
        parent_context: Context | None = None,
    ) -> SpanScope:
        """A span: ``with svc.span(...) as span:``, ``async with``, or ``@svc.span(...)``.

        Args:
            name: The span name, nonblank.
            kind: Default ``SpanKind.INTERNAL``.
            attributes: Extra OpenTelemetry attributes, caller-owned (never treated as content).
            input: Root input, recorded as JSON when content capture is on (``None`` is a value).
            session_id: 1 to 4096 characters; inherited by spans inside; ``gen_ai.conversation.id``.
            user_id: 1 to 4096 characters; inherited by spans inside; ``user.id``.
            parent_context: Explicit parent; else the current OpenTelemetry context.

        Raises:
            InvalidOptionError: an argument breaks its rule.
        """
        validate_span_options(name, kind, attributes, session_id, user_id, parent_context)
        return SpanScope(
            self,
            name,
            kind=kind,
            attributes=attributes,
            input=input,
            session_id=session_id,
            user_id=user_id,
            parent_context=parent_context,
        )

    @overload
    def tool(
        self, name: str, input: object, execute: Callable[[], Awaitable[T]], *, mcp: object = None
    ) -> Coroutine[Any, Any, T]: ...

    @overload
    def tool(self, name: str, input: object, execute: Callable[[], T], *, mcp: object = None) -> T: ...

    def tool(self, name: str, input: object, execute: Callable[[], Any], *, mcp: object = None) -> Any:
        """Runs a tool inside an ``execute_tool {name}`` span and returns its result.

        Its arguments and its result are recorded when content capture is on; with ``mcp`` (an MCP
        ``ClientSession``), ``mcp.server.name`` comes from the server's initialize result. When
        ``execute`` is a coroutine function (or returns an awaitable), the call returns an awaitable
        to ``await``. A result of ``None`` is recorded as JSON ``null``.

        Raises:
            InvalidOptionError: the name is blank or ``execute`` is not callable.
        """
        if not callable(execute):
            raise InvalidOptionError(f"tool execute must be a function; got {type(execute).__name__}")
        scope = self._tool_scope(name, input, mcp)
        if inspect.iscoroutinefunction(execute):
            return self._run_tool_async(scope, execute)
        handle = scope.__enter__()
        try:
            result = execute()
        except BaseException as error:
            scope.__exit__(type(error), error, error.__traceback__)
            raise
        if inspect.isawaitable(result):
            # The work runs where the awaitable is awaited: this context lets the span go now.
            scope.suspend()
            return self._finish_tool_async(scope, handle, result)
        try:
            self._set_content(handle.span, ATTR_TOOL_CALL_RESULT, None, result, "tool result")
        finally:
            scope.__exit__(None, None, None)
        return result

    def _tool_scope(self, name: str, input: object, mcp: object) -> SpanScope:
        validate_span_options(name, SpanKind.INTERNAL, None, None, None, None, "tool")
        server = mcp_server_name(mcp)
        attributes: dict[str, Any] = {ATTR_OPERATION_NAME: "execute_tool", ATTR_TOOL_NAME: name}
        if server is not None:
            attributes[ATTR_MCP_SERVER_NAME] = server

        def record_arguments(handle: SpanHandle) -> None:
            self._set_content(handle.span, ATTR_TOOL_CALL_ARGUMENTS, None, input, "tool arguments")

        return SpanScope(self, f"execute_tool {name}", attributes=attributes, prepare=record_arguments)

    async def _run_tool_async(self, scope: SpanScope, execute: Callable[[], Awaitable[T]]) -> T:
        async with scope as handle:
            result = await execute()
            self._set_content(handle.span, ATTR_TOOL_CALL_RESULT, None, result, "tool result")
            return result

    async def _finish_tool_async(self, scope: SpanScope, handle: SpanHandle, awaitable: Awaitable[T]) -> T:
        # The span is current inside the awaited work, in the context that awaits it.
        token = otel_context.attach(handle.context)
        handle_token = CURRENT_HANDLE.set(handle)
        error: BaseException | None = None
        try:
            result = await awaitable
            self._set_content(handle.span, ATTR_TOOL_CALL_RESULT, None, result, "tool result")
            return result
        except BaseException as raised:
            error = raised
            raise
        finally:
            CURRENT_HANDLE.reset(handle_token)
            otel_context.detach(token)
            scope.finish(error)

    def model(
        self,
        *,
        provider: str,
        model: str,
        input: object = UNSET,
        operation: str = "chat",
        system_instructions: object = UNSET,
        attributes: Mapping[str, Any] | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        parent_context: Context | None = None,
    ) -> ModelScope:
        """A model-call span: ``with svc.model(provider="openai", model="gpt-4o", input=messages) as call:``.

        A ``{operation} {model}`` CLIENT span with the GenAI conventions; ``call.set_response(...)``
        records the response (usage only as given, never estimated).

        Raises:
            InvalidOptionError: an argument breaks its rule.
        """
        validate_model_call(provider, model, operation)
        validate_span_options(model, SpanKind.CLIENT, attributes, session_id, user_id, parent_context, "model")

        def record_request(handle: SpanHandle) -> None:
            if input is not UNSET:
                self._set_content(handle.span, ATTR_INPUT_MESSAGES, None, input, "model input")
            if system_instructions is not UNSET:
                self._set_content(
                    handle.span, ATTR_SYSTEM_INSTRUCTIONS, None, system_instructions, "system instructions"
                )

        scope = SpanScope(
            self,
            f"{operation} {model}",
            kind=SpanKind.CLIENT,
            attributes=model_attributes(provider, model, operation, attributes),
            session_id=session_id,
            user_id=user_id,
            parent_context=parent_context,
            prepare=record_request,
        )
        return ModelScope(self, scope)

    def record_error(self, span: Span, error: BaseException) -> None:
        """Records ``error`` on ``span``: ``error.type`` and an ERROR status.

        The message and stack trace are recorded only when content capture is on.
        """
        error_type = _error_type(error)
        span.set_attribute(ATTR_ERROR_TYPE, error_type)
        if self._capture_content:
            span.record_exception(error)
            span.set_status(Status(StatusCode.ERROR, str(error)))
        else:
            span.add_event("exception", {"exception.type": error_type})
            span.set_status(Status(StatusCode.ERROR))

    def record_file(
        self,
        span: Span,
        *,
        role: FileRole,
        media_type: str,
        data: bytes | str | None = None,
        path: str | os.PathLike[str] | None = None,
        name: str | None = None,
        upload: bool = False,
    ) -> None:
        """Records a file the span's work read (``input``), received (``attachment``) or produced (``output``).

        A ``svc.file`` event with its SHA-256, size, media type, role and name; with ``upload=True``
        (and content capture on) its bytes also upload, listed in the span's ``svc.blobs`` as
        ``event:svc.file:<sha256>``. A ``path`` file is hashed now, with bounded memory, and must stay
        unchanged until it uploads. Never raises: what cannot be recorded raises a ``warning`` issue.
        """
        accounting = self._transport._accounting
        recorded = recorded_file(role=role, media_type=media_type, data=data, path=path, name=name, upload=upload)
        if isinstance(recorded, NotRecorded):
            accounting.raise_issue("traces", "warning", 1, f"record_file recorded nothing: {recorded.problem}")
            return
        for problem in recorded.problems:
            accounting.raise_issue("traces", "warning", 1, problem)
        span.add_event(FILE_EVENT, dict(recorded.attributes))
        # With capture off nothing uploads: the bytes are not kept beside the span.
        if recorded.upload is not None and self._capture_content:
            self._transport._files.add_event(span, recorded.upload)

    def log_inference(self, *, input: object = UNSET, output: object = UNSET, context: Context | None = None) -> None:
        """Emits an inference-details log record correlated with the current span (or ``context``).

        ``gen_ai.input.messages`` and ``gen_ai.output.messages`` as JSON. With content capture off it
        emits nothing; without an active span or explicit context it emits nothing and raises a
        ``warning`` issue.
        """
        if not self._capture_content:
            return
        accounting = self._transport._accounting
        ctx = otel_context.get_current() if context is None else context
        if not trace.get_current_span(ctx).get_span_context().is_valid:
            accounting.raise_issue(
                "logs", "warning", 0, "log_inference emitted nothing: call it inside a span or pass an explicit context"
            )
            return
        attributes: dict[str, str] = {}
        files: list[AttachedFile] = []
        for value, name, field in ((input, ATTR_INPUT_MESSAGES, "input"), (output, ATTR_OUTPUT_MESSAGES, "output")):
            content = helper_content(value, f"log_inference {field}")
            if content is None:
                continue
            if content.json is None:
                accounting.raise_issue("logs", "warning", 0, content.problem or "not recorded")
                continue
            attributes[name] = content.json
            for file in self._attachments(name, content.attachments, "logs"):
                files.append(AttachedFile(file, FileHolder(attribute=name)))
        with self._transport._files.emitting(files):
            self._logger.emit(event_name=INFERENCE_DETAILS_EVENT, context=ctx, attributes=attributes)

    def _set_content(self, span: Span, name: str, mime_name: str | None, value: object, field: str) -> None:
        if not self._capture_content:
            return
        content = helper_content(value, field)
        if content is None:
            return
        if content.json is None:
            self._transport._accounting.raise_issue("traces", "warning", 0, content.problem or "not recorded")
            return
        if mime_name is None:
            span.set_attribute(name, content.json)
        else:
            span.set_attributes({name: content.json, mime_name: "application/json"})
        files = self._transport._files
        if content.attachments:
            files.set_attribute(span, name, self._attachments(name, content.attachments, "traces"))
        elif files.any_held:
            files.set_attribute(span, name, ())  # a new value without files replaces one with

    def _attachments(self, name: str, placed: list[PlacedAttachment] | None, signal: Signal) -> list[FoundFile]:
        found: list[FoundFile] = []
        accounting = self._transport._accounting
        for item in placed or ():
            attachment = item.attachment
            if attachment.problem is not None:
                accounting.raise_issue(
                    signal, "warning", 1, f"an attachment in {name} was recorded as null: {attachment.problem}"
                )
            if attachment.name_problem is not None:
                accounting.raise_issue(signal, "warning", 1, f"{attachment.name_problem} (in {name})")
            file = attachment.found_file(f"{name}#{item.pointer}")
            if file is not None:
                found.append(file)
        return found

    # The service ------------------------------------------------------------------------------------

    def validate_project(self) -> ProjectConnection:
        """The project this client's key belongs to. Sends no telemetry.

        Raises:
            SvcConnectionError: the key was rejected, the service could not be reached, or it sent an
                invalid response.
        """
        options = self._transport.options
        return check_connection(self._transport._http, options.endpoint)

    def verify_trace(
        self,
        trace_id: str,
        expected_span_ids: list[str] | tuple[str, ...] | None = None,
        required_fields: list[str] | tuple[str, ...] | None = None,
        timeout_millis: float | None = None,
    ) -> TraceVerification:
        """Polls the trace's receipt until the expected spans and fields are stored or the deadline passes.

        Never flushes: flush first. Returns ``verified=False`` with the latest receipt (or ``None``)
        at the deadline (default 10 s, at most 60 s).

        Raises:
            InvalidOptionError: for invalid arguments (trace ID 32 lowercase hex, span IDs 16, at most
                100 unique, unique field names).
            SvcTraceVerificationError: any failure but a timeout.
        """
        options = self._transport.options
        return verify_trace(
            self._transport._http, options.endpoint, trace_id, expected_span_ids, required_fields, timeout_millis
        )

    # Flush and shutdown -----------------------------------------------------------------------------

    def _flush_providers(self, deadline: float | None) -> None:
        if self._owns_providers:
            return
        for provider in (self._tracer_provider, self._logger_provider):
            remaining = 30_000 if deadline is None else max(0, int((deadline - time.monotonic()) * 1000))
            try:
                provider.force_flush(remaining)
            except Exception:
                continue

    def _flush(self, timeout_seconds: float | None) -> tuple[bool, tuple[Any, ...], ExportStatus]:
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
        self._flush_providers(deadline)
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        done = self._transport.flush(remaining)
        accounting = self._transport._accounting
        with self._reported_lock:
            failures = accounting.failures_after(self._reported_through)
            self._reported_through = max(self._reported_through, accounting.failure_sequence())
        return done, failures, accounting.status()

    def flush(self) -> ExportStatus:
        """Exports everything recorded so far (records first, then the uploads queued before them).

        The call for serverless handlers and workers that must not lose their telemetry: call it at
        the end of each invocation. Returns the export status.

        Raises:
            SvcExportError: records were rejected, failed, dropped or acknowledged invalidly since the
                previous flush (``issues`` holds those failures, ``report`` the counters).
        """
        _done, failures, status = self._flush(None)
        if failures:
            counts = ", ".join(f"{issue.count} {issue.kind}" for issue in failures)
            raise SvcExportError(f"export failed since the previous flush: {counts}", failures, status)
        return status

    def force_flush(self, timeout_millis: float = DEFAULT_FLUSH_TIMEOUT_MILLIS) -> bool:
        """Exports everything recorded so far within ``timeout_millis``.

        Returns True when every record and upload queued before the call ended within the timeout
        and no export failed since the previous flush; ``export_status`` says what happened.
        """
        done, failures, _status = self._flush(_seconds(timeout_millis, "timeout_millis"))
        return done and not failures

    def shutdown(self, timeout_millis: float = DEFAULT_FLUSH_TIMEOUT_MILLIS) -> bool:
        """Flushes, then stops exporting; shuts down the client's own providers (not an application's).

        Returns True when everything ended within ``timeout_millis`` without an export failure.
        """
        seconds = _seconds(timeout_millis, "timeout_millis")
        done, failures, _status = self._flush(seconds)
        self._transport.shutdown(0 if not done else seconds)
        self._shut_down = True
        if self._owns_providers:
            for provider in (self._tracer_provider, self._logger_provider):
                try:
                    provider.shutdown()
                except Exception:
                    continue
        return done and not failures

    def force_flush_safe(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """``force_flush`` bounded by ``timeout_millis`` (default 1 s); never raises."""
        try:
            return self.force_flush(timeout_millis)
        except Exception:
            return False

    def shutdown_safe(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """``shutdown`` bounded by ``timeout_millis`` (default 1 s); never raises.

        When the deadline passes, exports and uploads still in flight are ended (their records count
        as failed, their files as upload fallbacks).
        """
        try:
            finished = self.shutdown(timeout_millis)
            if not finished and (
                self.export_status.pending_spans or self.export_status.pending_logs or self._transport._uploader.pending
            ):
                self._transport.abort()
            return finished
        except Exception:
            return False


def _otel_sdk_version() -> str:
    return str(otel_sdk_version)
