"""Calling the caller's ``decide`` safely.

Anything but ``upload``/``digest``, or an exception, leaves the file as recorded (the scanner
never raises).
"""

from __future__ import annotations

from collections.abc import Callable

from ...media_types import DecideFile, FileDecision, FoundFile

AskFile = Callable[[FoundFile], FileDecision]


def ask_file(decide: DecideFile) -> AskFile:
    """Wraps ``decide`` so that it never raises and only answers the three decisions."""

    def ask(file: FoundFile) -> FileDecision:
        try:
            decision = decide(file)
        except Exception:
            return "keep"
        if decision == "upload":
            return "upload"
        if decision == "digest":
            return "digest"
        return "keep"

    return ask
