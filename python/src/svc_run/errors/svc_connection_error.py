"""The error of the connection check (``validate_project()``)."""

from __future__ import annotations

from .svc_error import SvcError


class SvcConnectionError(SvcError):
    """The connection check failed: a rejected key, a network failure or an invalid response.

    ``status`` is the HTTP status when the service answered with an error, else ``None``. No
    trace is sent by the check.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status

    def __repr__(self) -> str:
        return f"SvcConnectionError({self.message!r}, status={self.status!r})"
