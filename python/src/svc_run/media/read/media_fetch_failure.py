"""Builds the MediaFetchErrors of the reader, with one message prefix."""

from __future__ import annotations

from ...errors.media_fetch_error import MediaFetchError, MediaFetchErrorReason


def media_fetch_failure(reason: MediaFetchErrorReason, message: str, status: int | None = None) -> MediaFetchError:
    """A MediaFetchError reading ``Could not read the file: <message>``."""
    return MediaFetchError(f"Could not read the file: {message}", reason, status)


def too_large_failure(max_bytes: int, status: int | None = None) -> MediaFetchError:
    """``too_large``: the file is over the call's ``max_bytes``."""
    return media_fetch_failure(
        "too_large",
        f"the file is larger than max_bytes ({max_bytes} bytes); pass a larger max_bytes (up to 1000000000) "
        "to read it.",
        status,
    )
