"""The safe client: telemetry failures never reach the application.

``create_svc_safe(enabled=False)`` disables it without needing a key; options that do not validate
also give a disabled client (one warning on the ``svc_run`` logger names the option, never a key's
value). Every method still runs the application's code exactly once and returns its result or
raises its exception unchanged.
"""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Generic, ParamSpec, TypeVar, overload

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import INVALID_SPAN, Span, SpanKind, Tracer

from ..connection.project_connection import ProjectConnection
from ..export.export_status import ExportStatus
from ..media.attachment.recorded_file import FileRole
from ..media.read.media_reader import MediaReader
from ..verify.trace_receipt import TraceVerification
from .helper_content import UNSET
from .model_call import ModelCallHandle
from .span_handle import SpanHandle
from .span_scope import SpanScope
from .svc import DEFAULT_SAFE_DEADLINE_MILLIS, Svc

T = TypeVar("T")
H = TypeVar("H", bound=SpanHandle)
P = ParamSpec("P")
R = TypeVar("R")
_logger = logging.getLogger("svc_run")


class _NoOwner:
    """The owner of no-op handles: records nothing."""

    tracer: Tracer = trace.NoOpTracer()

    def _set_content(self, span: Span, name: str, mime_name: str | None, value: object, field: str) -> None:
        return None

    def record_error(self, span: Span, error: BaseException) -> None:
        return None

    def record_file(self, span: Span, **_options: Any) -> None:
        return None


_NO_OWNER = _NoOwner()


def _noop_handle() -> ModelCallHandle:
    return ModelCallHandle(_NO_OWNER, INVALID_SPAN, otel_context.get_current())


class _SafeScope(Generic[H]):
    """Enters a real scope when it can; on any telemetry failure, a no-op handle instead."""

    def __init__(self, make: Callable[[], Any] | None, noop: Callable[[], H]) -> None:
        self._make = make
        self._noop = noop
        self._scope: Any = None

    def __enter__(self) -> H:
        if self._make is not None:
            try:
                self._scope = self._make()
                handle: H = self._scope.__enter__()
                return handle
            except Exception as error:
                _logger.debug("svc-run: a span was not recorded (%s)", type(error).__name__)
                self._scope = None
        return self._noop()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._scope is None:
            return
        try:
            self._scope.__exit__(exc_type, exc, traceback)
        except Exception as error:
            _logger.debug("svc-run: a span was not ended cleanly (%s)", type(error).__name__)

    async def __aenter__(self) -> H:
        return self.__enter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.__exit__(exc_type, exc, traceback)

    def __call__(self, function: Callable[P, R]) -> Callable[P, R]:
        """Decorates ``function`` (undecorated when disabled or when the options are invalid)."""
        if self._make is None:
            return function
        try:
            decorated: Callable[P, R] = self._make()(function)
        except Exception:
            return function
        return decorated


class SafeSvc:
    """A tracing client that never lets telemetry change the application's result or error."""

    def __init__(self, client: Svc | None) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"SafeSvc(enabled={self.enabled})"

    @property
    def enabled(self) -> bool:
        """Whether telemetry is recorded."""
        return self._client is not None

    @property
    def client(self) -> Svc | None:
        """The strict client underneath, or ``None`` when disabled."""
        return self._client

    @property
    def tracer(self) -> Tracer:
        """The client's tracer, or a no-op tracer when disabled."""
        return self._client.tracer if self._client is not None else trace.NoOpTracer()

    @property
    def media(self) -> MediaReader | None:
        """The client's media reader, or ``None`` when disabled."""
        return None if self._client is None else self._client.media

    @property
    def export_status(self) -> ExportStatus:
        """The client's export status (all zero when disabled)."""
        return ExportStatus() if self._client is None else self._client.export_status

    def get_context(self) -> Context:
        """The current OpenTelemetry context."""
        return otel_context.get_current()

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
    ) -> _SafeScope[SpanHandle]:
        """Like ``Svc.span``; invalid options record no span instead of raising."""
        client = self._client
        if client is None:
            return _SafeScope(None, _noop_handle)

        def make() -> Any:
            return client.span(
                name,
                kind=kind,
                attributes=attributes,
                input=input,
                session_id=session_id,
                user_id=user_id,
                parent_context=parent_context,
            )

        return _SafeScope(make, _noop_handle)

    def model(self, **options: Any) -> _SafeScope[ModelCallHandle]:
        """Like ``Svc.model``; invalid options record no span instead of raising."""
        client = self._client
        return _SafeScope(None if client is None else lambda: client.model(**options), _noop_handle)

    @overload
    def tool(
        self, name: str, input: object, execute: Callable[[], Awaitable[T]], *, mcp: object = None
    ) -> Coroutine[Any, Any, T]: ...

    @overload
    def tool(self, name: str, input: object, execute: Callable[[], T], *, mcp: object = None) -> T: ...

    def tool(self, name: str, input: object, execute: Callable[[], Any], *, mcp: object = None) -> Any:
        """Like ``Svc.tool``: ``execute`` runs once, whatever happens to telemetry."""
        if inspect.iscoroutinefunction(execute):
            return self._tool_async(name, input, execute, mcp)
        scope = self._tool_scope(name, input, mcp)
        handle = scope.__enter__()
        try:
            result = execute()
        except BaseException as error:
            scope.__exit__(type(error), error, error.__traceback__)
            raise
        if inspect.isawaitable(result):
            inner = scope._scope
            if self._client is not None and isinstance(inner, SpanScope):
                inner.suspend()
                return self._client._finish_tool_async(inner, handle, result)
            scope.__exit__(None, None, None)
            return result
        self._record_result(handle, result)
        scope.__exit__(None, None, None)
        return result

    def _tool_scope(self, name: str, input: object, mcp: object) -> _SafeScope[SpanHandle]:
        client = self._client
        if client is None:
            return _SafeScope(None, _noop_handle)
        return _SafeScope(lambda: client._tool_scope(name, input, mcp), _noop_handle)

    def _record_result(self, handle: SpanHandle, result: object) -> None:
        if self._client is None:
            return
        try:
            self._client._set_content(handle.span, "gen_ai.tool.call.result", None, result, "tool result")
        except Exception as error:
            _logger.debug("svc-run: a tool result was not recorded (%s)", type(error).__name__)

    async def _tool_async(self, name: str, input: object, execute: Callable[[], Awaitable[T]], mcp: object) -> T:
        async with self._tool_scope(name, input, mcp) as handle:
            result = await execute()
            self._record_result(handle, result)
            return result

    @contextmanager
    def _quietly(self, what: str) -> Iterator[None]:
        try:
            yield
        except Exception as error:
            _logger.debug("svc-run: %s failed (%s)", what, type(error).__name__)

    def record_error(self, span: Span, error: BaseException) -> None:
        """Like ``Svc.record_error``; never raises."""
        if self._client is not None:
            with self._quietly("record_error"):
                self._client.record_error(span, error)

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
        """Like ``Svc.record_file``; never raises."""
        if self._client is not None:
            with self._quietly("record_file"):
                self._client.record_file(
                    span, role=role, media_type=media_type, data=data, path=path, name=name, upload=upload
                )

    def log_inference(self, *, input: object = UNSET, output: object = UNSET, context: Context | None = None) -> None:
        """Like ``Svc.log_inference``; never raises."""
        if self._client is not None:
            with self._quietly("log_inference"):
                self._client.log_inference(input=input, output=output, context=context)

    def validate_project(self) -> ProjectConnection | None:
        """The project connection, or ``None`` when disabled or the check failed."""
        if self._client is None:
            return None
        try:
            return self._client.validate_project()
        except Exception:
            return None

    def verify_trace(
        self,
        trace_id: str,
        expected_span_ids: list[str] | tuple[str, ...] | None = None,
        required_fields: list[str] | tuple[str, ...] | None = None,
        timeout_millis: float | None = None,
    ) -> TraceVerification:
        """Like ``Svc.verify_trace``; any failure answers ``TraceVerification(False, None)``."""
        if self._client is None:
            return TraceVerification(False, None)
        try:
            return self._client.verify_trace(trace_id, expected_span_ids, required_fields, timeout_millis)
        except Exception:
            return TraceVerification(False, None)

    def flush(self) -> bool:
        """``force_flush_safe`` with the default deadline: never raises."""
        return self.force_flush_safe()

    def force_flush(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """``force_flush_safe``: bounded, never raises."""
        return self.force_flush_safe(timeout_millis)

    def shutdown(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """``shutdown_safe``: bounded, never raises."""
        return self.shutdown_safe(timeout_millis)

    def force_flush_safe(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """Flush bounded by ``timeout_millis`` (default 1 s); never raises. True when disabled."""
        return True if self._client is None else self._client.force_flush_safe(timeout_millis)

    def shutdown_safe(self, timeout_millis: float = DEFAULT_SAFE_DEADLINE_MILLIS) -> bool:
        """Shutdown bounded by ``timeout_millis`` (default 1 s); never raises. True when disabled."""
        return True if self._client is None else self._client.shutdown_safe(timeout_millis)


def create_svc_safe(*, enabled: bool = True, **options: Any) -> SafeSvc:
    """Creates a safe client, once per serving process (after fork in a pre-forking server).

    ``enabled=False`` disables it without needing a key. Options that do not validate also give a
    disabled client, with one warning on the ``svc_run`` logger saying which option is wrong
    (never its value when it is the key). Takes the same options as :class:`Svc`.
    """
    if enabled is False:
        return SafeSvc(None)
    try:
        return SafeSvc(Svc(**options))
    except Exception as error:
        message = str(error) if isinstance(error, (TypeError, ValueError)) else type(error).__name__
        _logger.warning("svc-run telemetry is disabled: %s", message)
        return SafeSvc(None)
