"""Finds the files in digest form in a recorded value, also inside JSON-encoded strings.

And writes replacements for them into a new value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from ..scan.find_digest_holders import DigestHolder, find_digest_holders
from .json_pointer_replace import child_pointer, replace_at_pointers

_MAX_DEPTH = 64


@dataclass(frozen=True)
class LocatedFile:
    """A file in digest form, and where it is."""

    holder: DigestHolder
    pointer: str
    """Pointer of the part (in the parsed value when the value is JSON text); for a part inside a
    JSON-encoded string, the pointer of that string."""
    inner_pointer: str | None = None
    """For a part inside a JSON-encoded string: its pointer inside the parsed string."""


@dataclass(frozen=True)
class _EncodedString:
    pointer: str
    parsed: object
    holders: list[DigestHolder]


@dataclass(frozen=True)
class DigestLocations:
    """The files of a value, ready for :func:`replace_files`."""

    files: list[LocatedFile]
    value: object
    root: object
    root_is_text: bool
    strings: list[_EncodedString] = field(default_factory=list)


def _reject_constant(name: str) -> object:
    raise ValueError(name)


def parse_json_text(text: str) -> object:
    """The parse of ``text`` when it is JSON of an object or an array, else ``None``."""
    first = text.lstrip(" \t\n\r")[:1]
    if first not in ("{", "["):
        return None
    try:
        parsed: object = json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        return None
    return parsed if isinstance(parsed, (dict, list)) else None


def _find_encoded_strings(value: object, pointer: str, depth: int, found: list[_EncodedString]) -> None:
    if isinstance(value, str):
        if '"sha256"' not in value:
            return
        parsed = parse_json_text(value)
        if parsed is None:
            return
        holders = find_digest_holders(parsed)
        if holders:
            found.append(_EncodedString(pointer, parsed, holders))
        return
    if depth >= _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, child in value.items():
            _find_encoded_strings(child, child_pointer(pointer, str(key)), depth + 1, found)
    elif isinstance(value, (list, tuple)):
        for index, child in enumerate(value):
            _find_encoded_strings(child, child_pointer(pointer, index), depth + 1, found)


def _is_within(pointer: str, prefix: str) -> bool:
    return pointer == prefix or pointer.startswith(f"{prefix}/")


def locate_digest_files(value: object) -> DigestLocations:
    """Finds the files in digest form of ``value`` (a parsed value, or JSON text of one)."""
    parsed = parse_json_text(value) if isinstance(value, str) else None
    root = value if parsed is None else parsed
    direct = find_digest_holders(root)
    found: list[_EncodedString] = []
    _find_encoded_strings(root, "", 0, found)
    strings = [s for s in found if not any(_is_within(s.pointer, h.pointer) for h in direct)]
    files = [LocatedFile(holder, holder.pointer) for holder in direct]
    for encoded in strings:
        files.extend(LocatedFile(holder, encoded.pointer, holder.pointer) for holder in encoded.holders)
    return DigestLocations(files, value, root, parsed is not None, strings)


def dumps_compact(value: object) -> str:
    """JSON text as the SDK writes values back: compact, UTF-8 characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def replace_files(
    locations: DigestLocations, replacement: Callable[[LocatedFile], object], *, parsed: bool = False
) -> object:
    """A new value with each file for which ``replacement`` returns a value replaced by it.

    Files for which it returns ``None`` stay as recorded; encoded strings are written back as JSON
    text; JSON text given as the value comes back as JSON text, unless ``parsed`` is set.
    """
    edits: list[tuple[str, object]] = []
    inner_edits: dict[str, list[tuple[str, object]]] = {}
    for file in locations.files:
        value = replacement(file)
        if value is None:
            continue
        if file.inner_pointer is None:
            edits.append((file.pointer, value))
        else:
            inner_edits.setdefault(file.pointer, []).append((file.inner_pointer, value))
    for encoded in locations.strings:
        inner = inner_edits.get(encoded.pointer)
        if inner is not None:
            edits.append((encoded.pointer, dumps_compact(replace_at_pointers(encoded.parsed, inner))))
    as_text = locations.root_is_text and not parsed
    if not edits:
        return locations.value if as_text else locations.root
    result = replace_at_pointers(locations.root, edits)
    return dumps_compact(result) if as_text else result
