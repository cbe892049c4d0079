"""What a span's ``with`` block receives: the span, its context and IDs, and content setters."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from opentelemetry.context import Context
from opentelemetry.trace import Span

from ..media.attachment.recorded_file import FileRole
from .attribute_names import ATTR_INPUT_MIME_TYPE, ATTR_INPUT_VALUE, ATTR_OUTPUT_MIME_TYPE, ATTR_OUTPUT_VALUE

if TYPE_CHECKING:
    from .span_owner import SpanOwner


class SpanHandle:
    """The handle of a span started by ``svc.span()`` (or ``svc.tool()``, ``svc.model()``)."""

    __slots__ = ("_owner", "context", "span")

    def __init__(self, owner: SpanOwner, span: Span, context: Context) -> None:
        self._owner = owner
        self.span = span
        """The OpenTelemetry span."""
        self.context = context
        """The context with this span active: pass it as an explicit parent (``parent_context=``)."""

    @property
    def trace_id(self) -> str:
        """The trace ID, 32 lowercase hex characters."""
        return format(self.span.get_span_context().trace_id, "032x")

    @property
    def span_id(self) -> str:
        """The span ID, 16 lowercase hex characters."""
        return format(self.span.get_span_context().span_id, "016x")

    def set_input(self, value: object) -> None:
        """Records the span's input (JSON, at most 256 KiB) when content capture is on."""
        self._owner._set_content(self.span, ATTR_INPUT_VALUE, ATTR_INPUT_MIME_TYPE, value, "input")

    def set_output(self, value: object) -> None:
        """Records the span's output (JSON, at most 256 KiB) when content capture is on."""
        self._owner._set_content(self.span, ATTR_OUTPUT_VALUE, ATTR_OUTPUT_MIME_TYPE, value, "output")

    def record_file(
        self,
        *,
        role: FileRole,
        media_type: str,
        data: bytes | str | None = None,
        path: str | os.PathLike[str] | None = None,
        name: str | None = None,
        upload: bool = False,
    ) -> None:
        """Records a file the work read, received or produced (see ``Svc.record_file``). Never raises."""
        self._owner.record_file(
            self.span, role=role, media_type=media_type, data=data, path=path, name=name, upload=upload
        )

    def __repr__(self) -> str:
        return f"SpanHandle(trace_id={self.trace_id!r}, span_id={self.span_id!r})"
