"""The scanner's walk over a structured value (an OpenTelemetry AnyValue such as a log body).

The same recognizers as for JSON text, read through the value reader; parts in digest form are
new objects and every unchanged subtree is shared (copy-on-write). Strings holding JSON are
scanned as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...media_types import INLINE_PREFIX_BYTES, FoundFile, Utf8Source
from ..digest.utf8_text import utf8_prefix
from ..json.json_pointer import format_pointer
from ..json.tokenize_json import Tokenized, tokenize_json
from ..media.data_url import starts_with_data_scheme
from ..recognizers.all_recognizers import candidate_recognizers
from ..recognizers.recognizer import PartMatch, PayloadEncoding, object_at
from .ask_decide import AskFile
from .digest_form import blob_part_value, text_file_prefix
from .file_facts import NO_MATCH, FileFacts, file_facts
from .found_payload import FoundPayload, bytes_payload, read_byte_array_value, read_string_payload
from .json_text_scan import MAX_FILE_DEPTH, JsonTextScan
from .may_hold_files import text_may_hold_files
from .node_readers import VALUE_READER
from .replace_member import replace_member, set_at_path
from .text_edits import apply_edits


def _read_value_payload(value: object, encoding: PayloadEncoding) -> FoundPayload | None:
    if isinstance(value, str):
        return read_string_payload(value, 0, len(value), encoding)
    if encoding == "data-url":
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return None if len(data) == 0 else bytes_payload(data)
    if encoding == "binary" and isinstance(value, (list, tuple)):
        data_or_none = read_byte_array_value(value)
        return None if data_or_none is None else bytes_payload(data_or_none)
    return None


def _looks_like_json(value: str) -> bool:
    stripped = value.lstrip(" \t\n\r")
    return stripped[:1] in ("{", "[") and stripped != ""


class StructuredScan:
    """Puts the files of one structured value in digest form."""

    def __init__(self, key_base: str, ask: AskFile) -> None:
        """``key_base``: the key up to the value's root, ``<name>#``."""
        self._key_base = key_base
        self._ask = ask
        self._path: list[str | int] = []

    def walk(self, value: object) -> object:
        """``value`` with its files in digest form, or ``value`` itself when nothing changed."""
        depth = len(self._path)
        if depth > MAX_FILE_DEPTH:
            return value
        if isinstance(value, str):
            return self._walk_string(value, depth)
        if isinstance(value, (list, tuple)):
            return self._walk_array(value)
        if isinstance(value, dict):
            return self._walk_object(value)
        return value

    def _child(self, value: object, token: str | int) -> object:
        self._path.append(token)
        try:
            return self.walk(value)
        finally:
            self._path.pop()

    def _walk_array(self, value: list[Any] | tuple[Any, ...]) -> object:
        copy: list[Any] | None = None
        for index, item in enumerate(value):
            following = self._child(item, index)
            if following is not item:
                if copy is None:
                    copy = list(value)
                copy[index] = following
        if copy is None:
            return value
        return tuple(copy) if isinstance(value, tuple) else copy

    def _walk_object(self, value: dict[Any, Any]) -> object:
        match: PartMatch | None = None
        skip: str | None = None
        type_, recognizers = candidate_recognizers(value, VALUE_READER)
        for recognizer in recognizers:
            match = recognizer.match(value, VALUE_READER, type_)
            if match is not None:
                skip = match.holder_path[0] if match.holder_path else match.field
                break
            references = recognizer.reference_members(value, VALUE_READER, type_)
            if references is not None:
                skip = references[0]
                break
        copy: dict[Any, Any] | None = None
        for key, item in value.items():
            if key == skip:
                if match is not None:
                    part = self._read_part(value, match)
                    if part is not None:
                        copy = part
                continue
            following = self._child(item, key if isinstance(key, str) else str(key))
            if following is not item:
                if copy is None:
                    copy = dict(value)
                copy[key] = following
        return value if copy is None else copy

    def _offer(self, payload: FoundPayload, facts: FileFacts, key_suffix: str) -> bool:
        file = FoundFile(
            key=f"{self._key_base}{format_pointer(self._path)}{key_suffix}",
            sha256=payload.sha256,
            size=payload.size,
            content_type=facts.content_type,
            modality=facts.modality,
            source=payload.source,
            name=facts.name,
        )
        return self._ask(file) != "keep"

    def _read_part(self, part: dict[Any, Any], match: PartMatch) -> dict[Any, Any] | None:
        holder = object_at(VALUE_READER, part, match.holder_path)
        if not isinstance(holder, Mapping) or match.field not in holder:
            return None
        payload = _read_value_payload(holder[match.field], match.encoding)
        if payload is None:
            return None
        facts = file_facts(match, payload)
        if facts is None:
            return None
        prefix = (
            utf8_prefix(payload.source.text, INLINE_PREFIX_BYTES)
            if payload.plain_text and isinstance(payload.source, Utf8Source)
            else None
        )
        if not self._offer(payload, facts, "" if prefix is None else "/content"):
            return None
        members: dict[str, object] = {} if prefix is None else {"content": prefix}
        members["sha256"] = payload.sha256
        members["size"] = payload.size
        return set_at_path(part, match.holder_path, replace_member(holder, match.field, members))

    def _walk_string(self, value: str, depth: int) -> object:
        if starts_with_data_scheme(value, 0):
            payload = read_string_payload(value, 0, len(value), "data-url")
            if payload is None:
                return value
            facts = file_facts(NO_MATCH, payload)
            if facts is None:
                return value
            prefix = text_file_prefix(payload.source) if facts.textual else None
            if not self._offer(payload, facts, "" if prefix is None else "/content"):
                return value
            return blob_part_value(facts, payload.sha256, payload.size, prefix)
        if not _looks_like_json(value) or not text_may_hold_files(value):
            return value
        tokens = tokenize_json(value, depth)
        if not isinstance(tokens, Tokenized) or tokens.big_integer:
            return value
        scan = JsonTextScan(
            tokens.tape,
            f"{self._key_base}{format_pointer(self._path)}",
            self._ask,
            large_mode=False,
            depth_base=depth,
        )
        scan.walk()
        return apply_edits(value, scan.edits)


def nests_within(value: object, limit: int, seen: frozenset[int] = frozenset()) -> bool:
    """Lists and dicts nest at most ``limit`` levels in ``value`` (cycles exceed any limit)."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return True
    if limit <= 0 or id(value) in seen:
        return False
    inner = seen | {id(value)}
    return all(nests_within(item, limit - 1, inner) for item in items)
