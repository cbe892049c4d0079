"""The error of ``media.fetch``: a recorded file could not be read back."""

from __future__ import annotations

from typing import Literal, TypeAlias

from .svc_error import SvcError

MediaFetchErrorReason: TypeAlias = Literal[
    "not_found",
    "missing",
    "unavailable",
    "forbidden",
    "too_large",
    "digest_mismatch",
    "failed",
]
"""Why a file could not be read.

- ``not_found``: the trace (or snapshot) holds no file with this SHA-256;
- ``missing``: a record lists the file but its bytes were never uploaded, or were erased;
- ``unavailable``: the service could not read its storage;
- ``forbidden``: the key cannot read recorded content, was rejected, or the link was refused;
- ``too_large``: the file is larger than ``max_bytes`` (default 64 MiB);
- ``digest_mismatch``: the bytes received do not have the SHA-256 asked for;
- ``failed``: anything else (no answer, an unexpected status, a malformed answer).
"""


class MediaFetchError(SvcError):
    """A file could not be read back.

    The message says what to change; it never holds a key, a response body, a download link or
    recorded content.
    """

    def __init__(self, message: str, reason: MediaFetchErrorReason, status: int | None = None) -> None:
        super().__init__(message)
        self.reason: MediaFetchErrorReason = reason
        self.status = status

    def __repr__(self) -> str:
        return f"MediaFetchError({self.message!r}, reason={self.reason!r}, status={self.status!r})"
