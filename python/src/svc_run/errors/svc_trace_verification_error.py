"""The error of :meth:`svc_run.Svc.verify_trace` for failures other than a timeout."""

from __future__ import annotations

from typing import Literal, TypeAlias

from .svc_error import SvcError

TraceVerificationErrorCode: TypeAlias = Literal[
    "unsupported_endpoint",
    "redirect",
    "malformed_response",
    "connection_failed",
    "unauthorized",
    "forbidden",
    "http_error",
]
"""Why a verification failed: no receipt route, a redirect (never followed), a malformed or
oversized receipt, no answer, HTTP 401, HTTP 403, or another status that is not retried."""


class SvcTraceVerificationError(SvcError):
    """Trace verification could not be carried out; never holds a response body or a credential."""

    def __init__(self, message: str, code: TraceVerificationErrorCode, status: int | None = None) -> None:
        super().__init__(message)
        self.code: TraceVerificationErrorCode = code
        self.status = status

    def __repr__(self) -> str:
        return f"SvcTraceVerificationError({self.message!r}, code={self.code!r}, status={self.status!r})"
