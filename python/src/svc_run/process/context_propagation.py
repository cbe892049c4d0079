"""Carrying the current OpenTelemetry context (the active span, session and user) into threads.

``asyncio`` tasks copy the context by themselves; ``concurrent.futures`` thread pools and plain
threads do not. Wrap the function you submit, or submit ``contextvars.copy_context().run``.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def with_current_context(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` bound to a copy of the caller's context: spans it starts keep their parent.

    Example:
        >>> with svc.span("fan out"):
        ...     futures = [pool.submit(with_current_context(work), item) for item in items]
    """
    captured = contextvars.copy_context()

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return captured.copy().run(function, *args, **kwargs)

    return run
