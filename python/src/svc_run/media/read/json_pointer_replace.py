"""Copy-on-write replacement at JSON pointers (RFC 6901) in parsed values."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..scan.json.json_pointer import format_pointer, parse_pointer

_INDEX = re.compile("0|[1-9][0-9]*")


def child_pointer(pointer: str, token: str | int) -> str:
    """``pointer`` extended by one reference token (escaped)."""
    return pointer + format_pointer([token])


def _reaches(root: object, tokens: list[str]) -> bool:
    current = root
    for token in tokens:
        if isinstance(current, dict):
            if token not in current:
                return False
            current = current[token]
        elif isinstance(current, (list, tuple)):
            if _INDEX.fullmatch(token) is None or int(token) >= len(current):
                return False
            current = current[int(token)]
        else:
            return False
    return True


def replace_at_pointers(root: object, replacements: Sequence[tuple[str, object]]) -> object:
    """A new value equal to ``root`` with each ``(pointer, replacement)`` applied in order.

    Containers on the way to a replaced place are copied (once); everything else is shared with
    ``root``, which is never modified. A pointer that names no existing place is skipped.
    """
    copies: set[int] = set()

    def own(container: Any) -> Any:
        if id(container) in copies:
            return container
        copy = dict(container) if isinstance(container, dict) else list(container)
        copies.add(id(copy))
        return copy

    result: Any = root
    for pointer, value in replacements:
        tokens = parse_pointer(pointer)
        if tokens is None:
            continue
        if not tokens:
            result = value
            continue
        if not _reaches(result, tokens):
            continue
        result = own(result)
        parent = result
        for token in tokens[:-1]:
            key: Any = token if isinstance(parent, dict) else int(token)
            child = own(parent[key])
            parent[key] = child
            parent = child
        last: Any = tokens[-1] if isinstance(parent, dict) else int(tokens[-1])
        parent[last] = value
    return result
