"""What the client keeps in the OpenTelemetry context (contextvars): session, user, span handle."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from opentelemetry.context import create_key

SESSION_KEY = create_key("svc-run.session-id")
"""The session ID inherited by spans started inside a span that set one."""
USER_KEY = create_key("svc-run.user-id")
"""The user ID inherited by spans started inside a span that set one."""
CURRENT_HANDLE: ContextVar[Any] = ContextVar("svc_run_current_span_handle", default=None)
"""The handle of the innermost ``svc.span`` entered in this context (``Svc.current_span()``)."""
