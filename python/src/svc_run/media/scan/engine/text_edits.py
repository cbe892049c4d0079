"""Edits of a text at positions: the input with the replaced ranges swapped, the rest kept."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextEdit:
    """Replace ``text[start:end]`` with ``replacement``."""

    start: int
    end: int
    replacement: str


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """``text`` with ``edits`` (ascending, not overlapping) applied."""
    if not edits:
        return text
    pieces: list[str] = []
    last = 0
    for edit in edits:
        pieces.append(text[last : edit.start])
        pieces.append(edit.replacement)
        last = edit.end
    pieces.append(text[last:])
    return "".join(pieces)
