"""What a span scope needs of the client that owns it."""

from __future__ import annotations

import os
from typing import Protocol

from opentelemetry.trace import Span, Tracer

from ..media.attachment.recorded_file import FileRole


class SpanOwner(Protocol):
    """The client methods a span scope and its handle call."""

    @property
    def tracer(self) -> Tracer:
        """The tracer spans are started with."""
        ...

    def _set_content(self, span: Span, name: str, mime_name: str | None, value: object, field: str) -> None: ...

    def record_error(self, span: Span, error: BaseException) -> None:
        """Records ``error`` on ``span``."""
        ...

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
        """Records a file on ``span``."""
        ...
