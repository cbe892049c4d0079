"""The error the content policy raises for a record it cannot export (internal)."""

from __future__ import annotations

from typing import Literal, TypeAlias

RecordRejectedReason: TypeAlias = Literal["redactor-raised", "redactor-returned-non-string", "too-deep"]

_PHRASES: dict[RecordRejectedReason, str] = {
    "redactor-raised": "the redact callback raised for",
    "redactor-returned-non-string": "the redact callback returned a non-string for",
    "too-deep": "the value is nested too deeply to redact at",
}


class RecordRejectedError(Exception):
    """A record the content policy refused; the export counts it as rejected.

    The message names the reason and the value's path; it never holds the value, and the
    redactor's own error is not chained, since its message may quote the value.
    """

    def __init__(self, reason: RecordRejectedReason, path: str) -> None:
        super().__init__(f"{_PHRASES[reason]} {path}")
        self.reason: RecordRejectedReason = reason
        self.path = path
