"""Copy-on-write edits of parsed values: one member replaced by others at the same place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def replace_member(obj: Mapping[Any, Any], field: str, members: Mapping[str, Any]) -> dict[Any, Any]:
    """A copy of ``obj`` with member ``field`` replaced by ``members`` (in its place)."""
    copy: dict[Any, Any] = {}
    for key, value in obj.items():
        if key == field:
            copy.update(members)
        elif key not in members:
            copy[key] = value
    return copy


def set_at_path(part: Mapping[Any, Any], path: tuple[str, ...], value: dict[Any, Any]) -> dict[Any, Any]:
    """A copy of ``part`` with the object at ``path`` (names from the part) replaced by ``value``."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    child = part[head]
    copy = dict(part)
    copy[head] = set_at_path(child, rest, value)
    return copy
