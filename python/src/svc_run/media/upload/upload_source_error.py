"""The error an upload body raises when its bytes are not the file that was recorded (internal)."""

from __future__ import annotations

from typing import Literal, TypeAlias

UploadSourceProblem: TypeAlias = Literal["changed", "unreadable"]

_PHRASES: dict[UploadSourceProblem, str] = {
    "changed": "the file changed after it was recorded",
    "unreadable": "the file could not be read",
}


class UploadSourceError(Exception):
    """The recorded bytes are no longer available as recorded. The message never names the file."""

    def __init__(self, problem: UploadSourceProblem) -> None:
        super().__init__(_PHRASES[problem])
        self.problem: UploadSourceProblem = problem
