"""The scanner's walk over one positioned JSON text.

Every object (in reading order, parts at most ten levels below the value's root) is offered to the
recognizers its ``type`` (or, untyped, its members) can match; whole data: URL strings become GenAI
blob parts; strings that are themselves JSON are scanned in turn, their edits written back inside
the string literal. The walk only collects edits; the text is never re-serialized.
"""

from __future__ import annotations

from ...media_types import INLINE_PREFIX_BYTES, FoundFile, Utf8Source
from ..digest.utf8_text import utf8_prefix
from ..json.js_text import json_string_contents
from ..json.json_pointer import escape_pointer_token
from ..json.json_string_text import DecodedPositionMap, decode_key, decode_string_node, find_member
from ..json.json_tape import ARRAY, OBJECT, ROOT, STRING, JsonTape
from ..json.tokenize_json import LONG_STRING_UNITS, Tokenized, tokenize_json
from ..media.data_url import starts_with_data_scheme
from ..recognizers.all_recognizers import (
    RECOGNIZED_TYPES,
    UNTYPED_PART_KEYS,
    UNTYPED_RECOGNIZERS,
    recognizers_for_type,
)
from ..recognizers.recognizer import PartMatch, PayloadEncoding, Recognizer, object_at
from .ask_decide import AskFile
from .digest_form import blob_part_text, digest_members_text, text_file_prefix
from .file_facts import NO_MATCH, FileFacts, file_facts
from .found_payload import FoundPayload, bytes_payload, read_byte_array_text, read_string_payload
from .may_hold_files import text_may_hold_files
from .node_readers import TextNodeReader
from .text_edits import TextEdit

MAX_FILE_DEPTH = 10
"""Files more than this many levels below a value's root are left as recorded."""

_NO_RECOGNIZERS: tuple[Recognizer, ...] = ()
_UNTYPED_KEYS = frozenset(UNTYPED_PART_KEYS)
_TYPES = frozenset(RECOGNIZED_TYPES)
_LONGEST_WORD = max(len(word) for word in (*RECOGNIZED_TYPES, *UNTYPED_PART_KEYS))
# First characters of strings that may hold a file: d, D (data:), {, [, space, tab, \ (JSON).
_MAY_OPEN = frozenset("dD{[ \t\\")


class JsonTextScan:
    """Collects the edits that put the files of one JSON text in digest form."""

    def __init__(
        self,
        tape: JsonTape,
        key_base: str,
        ask: AskFile,
        large_mode: bool,
        depth_base: int,
        pre_check: bool = True,
    ) -> None:
        """Prepares a walk.

        Args:
            tape: The tokenized text.
            key_base: The text's ``svc.blobs`` key up to its root (``<attribute>#`` and any pointer).
            ask: Decides each file found.
            large_mode: The value is too large to parse: long strings with escapes are not read.
            depth_base: Levels above the text's root (a JSON string's own depth).
            pre_check: Leave strings holding JSON alone when the pre-check proves them file-free.
        """
        self.edits: list[TextEdit] = []
        self._tape = tape
        self._text = tape.text
        self._key_base = key_base
        self._ask = ask
        self._large_mode = large_mode
        self._depth_base = depth_base
        self._pre_check = pre_check
        self._reader = TextNodeReader(tape)
        self._path_nodes: list[int] = []
        self._path_steps: list[int] = []

    def walk(self, node: int = ROOT) -> None:
        """Walks ``node`` (the text's root unless called recursively)."""
        depth = self._depth_base + len(self._path_nodes)
        if depth > MAX_FILE_DEPTH:
            return
        kind = self._tape.kind(node)
        if kind == OBJECT:
            self._walk_object(node)
        elif kind == ARRAY:
            self._walk_array(node)
        elif kind == STRING:
            self._walk_string(node, depth)

    def _candidates(self, node: int) -> tuple[str | None, tuple[Recognizer, ...]]:
        tape = self._tape
        text = self._text
        nexts = tape.nexts
        key_starts = tape.key_starts
        key_ends = tape.key_ends
        type_node = -1
        untyped = False
        end = nexts[node]
        member = node + 1
        while member < end:
            key_start = key_starts[member] + 1
            key_end = key_ends[member] - 1
            length = key_end - key_start
            if length == 4 and text.startswith("type", key_start):
                type_node = member
                break
            if not untyped and length <= _LONGEST_WORD and text[key_start:key_end] in _UNTYPED_KEYS:
                untyped = True
            member = nexts[member]
        if type_node < 0:
            return None, (UNTYPED_RECOGNIZERS if untyped else _NO_RECOGNIZERS)
        if tape.kind(type_node) != STRING:
            return None, _NO_RECOGNIZERS
        type_: str | None
        if tape.escaped(type_node):
            type_ = self._reader.string(type_node)
        else:
            start = tape.starts[type_node] + 1
            stop = tape.ends[type_node] - 1
            word = text[start:stop] if stop - start <= _LONGEST_WORD else None
            type_ = word if word is not None and word in _TYPES else None
        if type_ is None:
            return None, _NO_RECOGNIZERS
        return type_, recognizers_for_type(type_)

    def _may_hold_files(self, node: int) -> bool:
        kind = self._tape.kind(node)
        if kind != STRING:
            return kind in (OBJECT, ARRAY)
        return self._text[self._tape.starts[node] + 1] in _MAY_OPEN

    def _walk_child(self, node: int, step: int, child: int) -> None:
        self._path_nodes.append(node)
        self._path_steps.append(step)
        self.walk(child)
        self._path_nodes.pop()
        self._path_steps.pop()

    def _walk_array(self, node: int) -> None:
        nexts = self._tape.nexts
        end = nexts[node]
        index = 0
        child = node + 1
        while child < end:
            if self._may_hold_files(child):
                self._walk_child(node, index, child)
            child = nexts[child]
            index += 1

    def _walk_object(self, node: int) -> None:
        tape = self._tape
        reader = self._reader
        match: PartMatch | None = None
        match_member = -1
        reference_member = -1
        type_, recognizers = self._candidates(node)
        for recognizer in recognizers:
            match = recognizer.match(node, reader, type_)
            if match is not None:
                field = match.holder_path[0] if match.holder_path else match.field
                match_member = find_member(tape, node, field)
                break
            references = recognizer.reference_members(node, reader, type_)
            if references is not None:
                reference_member = find_member(tape, node, references[0])
                break
        nexts = tape.nexts
        end = nexts[node]
        member = node + 1
        while member < end:
            if member == reference_member:
                pass
            elif member == match_member and match is not None:
                self._read_part(node, match)
            elif self._may_hold_files(member):
                self._walk_child(node, member, member)
            member = nexts[member]

    def _walk_string(self, node: int, depth: int) -> None:
        text = self._text
        position = self._tape.starts[node] + 1
        first = text[position]
        if first in "dD":
            if starts_with_data_scheme(text, position):
                self._read_data_url_string(node)
            return
        c = first
        while True:
            if c in " \t":
                position += 1
                c = text[position]
            elif c == "\\":
                if text[position + 1] not in "nrt":
                    return
                position += 2
                c = text[position]
            else:
                break
        if c in "{[" and position < self._tape.ends[node] - 1:
            self._read_json_string(node, depth)

    def _pointer(self) -> str | None:
        parts: list[str] = []
        tape = self._tape
        for container, step in zip(self._path_nodes, self._path_steps, strict=True):
            if tape.kind(container) == ARRAY:
                parts.append(f"/{step}")
                continue
            key = decode_key(tape, step)
            if key is None:
                return None
            parts.append(f"/{escape_pointer_token(key)}")
        return "".join(parts)

    def _read_payload(self, node: int, encoding: PayloadEncoding) -> FoundPayload | None:
        tape = self._tape
        kind = tape.kind(node)
        start = tape.starts[node]
        end = tape.ends[node]
        if kind == ARRAY:
            if encoding != "binary":
                return None
            data = read_byte_array_text(self._text, start, end, tape.child_count(node))
            return None if data is None else bytes_payload(data)
        if kind != STRING:
            return None
        if not tape.escaped(node):
            return read_string_payload(self._text, start + 1, end - 1, encoding)
        if self._large_mode and end - start - 2 > LONG_STRING_UNITS:
            return None
        decoded = decode_string_node(tape, node)
        return None if decoded is None else read_string_payload(decoded, 0, len(decoded), encoding)

    def _offer(self, payload: FoundPayload, facts: FileFacts, key_suffix: str) -> bool:
        pointer = self._pointer()
        if pointer is None:
            return False
        file = FoundFile(
            key=f"{self._key_base}{pointer}{key_suffix}",
            sha256=payload.sha256,
            size=payload.size,
            content_type=facts.content_type,
            modality=facts.modality,
            source=payload.source,
            name=facts.name,
        )
        return self._ask(file) != "keep"

    def _read_part(self, part: int, match: PartMatch) -> None:
        holder = object_at(self._reader, part, match.holder_path)
        if holder is None:
            return
        payload_node = find_member(self._tape, holder, match.field)
        if payload_node < 0:
            return
        payload = self._read_payload(payload_node, match.encoding)
        if payload is None:
            return
        facts = file_facts(match, payload)
        if facts is None:
            return
        prefix = (
            utf8_prefix(payload.source.text, INLINE_PREFIX_BYTES)
            if payload.plain_text and isinstance(payload.source, Utf8Source)
            else None
        )
        if not self._offer(payload, facts, "" if prefix is None else "/content"):
            return
        self.edits.append(
            TextEdit(
                self._tape.key_starts[payload_node],
                self._tape.ends[payload_node],
                digest_members_text(payload.sha256, payload.size, prefix),
            )
        )

    def _read_data_url_string(self, node: int) -> None:
        payload = self._read_payload(node, "data-url")
        if payload is None:
            return
        facts = file_facts(NO_MATCH, payload)
        if facts is None:
            return
        prefix = text_file_prefix(payload.source) if facts.textual else None
        if not self._offer(payload, facts, "" if prefix is None else "/content"):
            return
        self.edits.append(
            TextEdit(
                self._tape.starts[node],
                self._tape.ends[node],
                blob_part_text(facts, payload.sha256, payload.size, prefix),
            )
        )

    def _read_json_string(self, node: int, depth: int) -> None:
        tape = self._tape
        start = tape.starts[node]
        end = tape.ends[node]
        if self._large_mode and tape.escaped(node) and end - start - 2 > LONG_STRING_UNITS:
            return
        if self._pre_check and not text_may_hold_files(self._text, start + 1, end - 1):
            return
        inner = decode_string_node(tape, node)
        if inner is None:
            return
        tokens = tokenize_json(inner, depth)
        if not isinstance(tokens, Tokenized) or tokens.big_integer:
            return
        pointer = self._pointer()
        if pointer is None:
            return
        scan = JsonTextScan(
            tokens.tape,
            f"{self._key_base}{pointer}",
            self._ask,
            large_mode=False,
            depth_base=depth,
            pre_check=self._pre_check,
        )
        scan.walk()
        if not scan.edits:
            return
        positions = DecodedPositionMap(self._text, start + 1, end - 1)
        for edit in scan.edits:
            self.edits.append(
                TextEdit(
                    positions.map(edit.start),
                    positions.map(edit.end),
                    json_string_contents(edit.replacement),
                )
            )
