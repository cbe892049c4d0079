"""The base of every error the SDK raises on purpose."""

from __future__ import annotations


class SvcError(Exception):
    """Base class of the SDK's errors. Messages never hold a key, a server body or content."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        """The message, as ``str(error)`` shows it."""
