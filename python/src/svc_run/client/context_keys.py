"""What the client keeps in the OpenTelemetry context (contextvars): session, user, span handle."""

from __future__ import annotations

from opentelemetry.context import create_key

SESSION_KEY = create_key("svc-run.session-id")
"""The session ID inherited by spans started inside a span that set one."""
USER_KEY = create_key("svc-run.user-id")
"""The user ID inherited by spans started inside a span that set one."""
HANDLE_KEY = create_key("svc-run.span-handle")
"""The handle of the innermost ``svc.span`` (``Svc.current_span()``)."""
