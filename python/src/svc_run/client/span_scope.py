"""``svc.span(...)``: a context manager (``with`` and ``async with``) and a decorator.

Entering starts the span and makes it the current span of the OpenTelemetry context (contextvars:
it follows ``asyncio`` tasks, and thread pools given ``contextvars.copy_context()``); leaving ends
it, recording an exception that escapes the block and letting it propagate unchanged. As a
decorator it wraps functions, coroutine functions and (async) generators: a generator's span covers
its whole iteration, current only while the generator runs.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator, Mapping
from contextvars import Token
from types import TracebackType
from typing import Any, ParamSpec, TypeVar, cast

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import SpanKind

from .attribute_names import ATTR_CONVERSATION_ID, ATTR_USER_ID
from .context_keys import CURRENT_HANDLE, SESSION_KEY, USER_KEY
from .helper_content import UNSET
from .span_handle import SpanHandle
from .span_owner import SpanOwner

P = ParamSpec("P")
R = TypeVar("R")


class SpanScope:
    """One span to start: enter it (``with``/``async with``) or decorate a function with it."""

    def __init__(
        self,
        owner: SpanOwner,
        name: str,
        *,
        kind: SpanKind = SpanKind.INTERNAL,
        attributes: Mapping[str, Any] | None = None,
        input: object = UNSET,
        session_id: str | None = None,
        user_id: str | None = None,
        parent_context: Context | None = None,
        prepare: Callable[[SpanHandle], None] | None = None,
    ) -> None:
        self._owner = owner
        self._name = name
        self._kind = kind
        self._attributes = attributes
        self._input = input
        self._session_id = session_id
        self._user_id = user_id
        self._parent_context = parent_context
        self._prepare = prepare
        self._handle: SpanHandle | None = None
        self._token: object | None = None
        self._handle_token: Token[Any] | None = None

    def _fresh(self) -> SpanScope:
        return SpanScope(
            self._owner,
            self._name,
            kind=self._kind,
            attributes=self._attributes,
            input=self._input,
            session_id=self._session_id,
            user_id=self._user_id,
            parent_context=self._parent_context,
            prepare=self._prepare,
        )

    def start(self) -> SpanHandle:
        """Starts the span without making it current (see ``__enter__``)."""
        if self._handle is not None:
            raise RuntimeError("a span scope is entered once; call svc.span(...) again for another span")
        parent = otel_context.get_current() if self._parent_context is None else self._parent_context
        ctx = parent
        if self._session_id is not None:
            ctx = otel_context.set_value(SESSION_KEY, self._session_id, ctx)
        if self._user_id is not None:
            ctx = otel_context.set_value(USER_KEY, self._user_id, ctx)
        # A Context is a dict: read the inherited identities without copying anything.
        session = ctx.get(SESSION_KEY)
        user = ctx.get(USER_KEY)
        attributes: Mapping[str, Any] | None = self._attributes
        if isinstance(session, str) or isinstance(user, str):
            identified: dict[str, Any] = dict(attributes or {})
            if isinstance(session, str):
                identified[ATTR_CONVERSATION_ID] = session
            if isinstance(user, str):
                identified[ATTR_USER_ID] = user
            attributes = identified
        span = self._owner.tracer.start_span(self._name, context=parent, kind=self._kind, attributes=attributes)
        span_context = trace.set_span_in_context(span, ctx)
        handle = SpanHandle(self._owner, span, span_context)
        self._handle = handle
        if self._prepare is not None:
            self._prepare(handle)
        if self._input is not UNSET:
            handle.set_input(self._input)
        return handle

    def finish(self, error: BaseException | None) -> None:
        """Ends the span, recording ``error`` when one escaped."""
        handle = self._handle
        if handle is None:
            return
        try:
            if error is not None:
                self._owner.record_error(handle.span, error)
        finally:
            handle.span.end()

    def __enter__(self) -> SpanHandle:
        handle = self.start()
        self._token = otel_context.attach(handle.context)
        self._handle_token = CURRENT_HANDLE.set(handle)
        return handle

    def suspend(self) -> None:
        """Stops being the current span of this context, without ending (the work goes on elsewhere)."""
        token, self._token = self._token, None
        if token is not None:
            otel_context.detach(token)  # type: ignore[arg-type]
        handle_token, self._handle_token = self._handle_token, None
        if handle_token is not None:
            try:
                CURRENT_HANDLE.reset(handle_token)
            except ValueError:  # left in another context than it was entered in
                CURRENT_HANDLE.set(None)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        try:
            self.finish(exc)
        finally:
            self.suspend()

    async def __aenter__(self) -> SpanHandle:
        return self.__enter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.__exit__(exc_type, exc, traceback)

    def __call__(self, function: Callable[P, R]) -> Callable[P, R]:
        """Decorates ``function``: each call runs in a new span with these options."""
        if inspect.isasyncgenfunction(function):
            return cast(Callable[P, R], self._wrap_async_generator(function))
        if inspect.isgeneratorfunction(function):
            return cast(Callable[P, R], self._wrap_generator(function))
        if inspect.iscoroutinefunction(function):
            coroutine_function = cast(Callable[P, Awaitable[Any]], function)

            @functools.wraps(function)
            async def run_async(*args: P.args, **kwargs: P.kwargs) -> Any:
                async with self._fresh():
                    return await coroutine_function(*args, **kwargs)

            return cast(Callable[P, R], run_async)

        @functools.wraps(function)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            with self._fresh():
                return function(*args, **kwargs)

        return run

    def _wrap_generator(
        self, function: Callable[..., Generator[Any, Any, Any]]
    ) -> Callable[..., Generator[Any, Any, Any]]:
        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
            scope = self._fresh()
            handle = scope.start()
            generator = None
            error: BaseException | None = None
            try:
                token = otel_context.attach(handle.context)
                try:
                    generator = function(*args, **kwargs)
                finally:
                    otel_context.detach(token)
                sent: Any = None
                while True:
                    token = otel_context.attach(handle.context)
                    handle_token = CURRENT_HANDLE.set(handle)
                    try:
                        item = generator.send(sent)
                    except StopIteration as stop:
                        return stop.value
                    finally:
                        CURRENT_HANDLE.reset(handle_token)
                        otel_context.detach(token)
                    sent = yield item
            except BaseException as raised:
                error = raised
                if isinstance(raised, GeneratorExit) and generator is not None:
                    generator.close()
                raise
            finally:
                scope.finish(None if isinstance(error, GeneratorExit) else error)

        return run

    def _wrap_async_generator(
        self, function: Callable[..., AsyncGenerator[Any, Any]]
    ) -> Callable[..., AsyncGenerator[Any, Any]]:
        @functools.wraps(function)
        async def run(*args: Any, **kwargs: Any) -> AsyncGenerator[Any, Any]:
            scope = self._fresh()
            handle = scope.start()
            error: BaseException | None = None
            generator: Any = None
            try:
                token = otel_context.attach(handle.context)
                try:
                    generator = function(*args, **kwargs)
                finally:
                    otel_context.detach(token)
                sent: Any = None
                while True:
                    token = otel_context.attach(handle.context)
                    handle_token = CURRENT_HANDLE.set(handle)
                    try:
                        item = await generator.asend(sent)
                    except StopAsyncIteration:
                        return
                    finally:
                        CURRENT_HANDLE.reset(handle_token)
                        otel_context.detach(token)
                    sent = yield item
            except BaseException as raised:
                error = raised
                if isinstance(raised, GeneratorExit) and generator is not None:
                    await generator.aclose()
                raise
            finally:
                scope.finish(None if isinstance(error, GeneratorExit) else error)

        return run
