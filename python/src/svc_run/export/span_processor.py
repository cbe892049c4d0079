"""The service's span processor: queues every sampled span that ends into the trace pipeline.

Attach it to any tracer provider (the existing-provider form). A flush sends the queued spans, then
waits for the uploads of files queued before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

if TYPE_CHECKING:
    from .svc_transport import SvcTransport


class SvcSpanProcessor(SpanProcessor):
    """Queues ended, sampled spans for export to the service."""

    def __init__(self, transport: SvcTransport) -> None:
        self._transport = transport

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        """Nothing happens when a span starts."""

    def on_end(self, span: ReadableSpan) -> None:
        """Queues ``span`` when it is sampled."""
        context = span.context
        if context is None or not context.trace_flags.sampled:
            self._transport._files.drop(span)
            return
        self._transport._files.ended(span)
        self._transport._spans.add(span)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Exports what is queued, then waits for the uploads queued before; True when all ended."""
        return self._transport.flush_signal("traces", timeout_millis / 1000)

    def shutdown(self) -> None:
        """Flushes, then refuses further spans (called by the provider's own shutdown)."""
        self._transport.shutdown_signal("traces")
