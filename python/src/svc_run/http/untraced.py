"""Runs the SDK's own HTTP calls with OpenTelemetry instrumentation suppressed.

An application's urllib3 or requests instrumentation then records no span of an export, upload or
receipt request (which would otherwise be exported in turn, without end).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from opentelemetry import context

_SUPPRESS_KEYS = ("suppress_instrumentation", "suppress_http_instrumentation")


def _suppressed() -> context.Context:
    ctx = context.get_current()
    for name in _SUPPRESS_KEYS:
        key = getattr(context, f"_{name.upper()}_KEY", None)
        if key is not None:
            ctx = context.set_value(key, True, ctx)
    return ctx


@contextmanager
def untraced() -> Iterator[None]:
    """A block in which instrumentations record nothing."""
    token = context.attach(_suppressed())
    try:
        yield
    finally:
        context.detach(token)
