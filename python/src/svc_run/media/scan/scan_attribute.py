"""``scan_attribute``: the inline files of one scanned span or log attribute value in digest form.

The value's text is edited at positions (spec "Automatic capture of files"); the rest of the text
is kept byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..media_types import DecideFile, FoundFile
from .engine.ask_decide import AskFile, ask_file
from .engine.digest_form import blob_part_text, text_file_prefix
from .engine.file_facts import NO_MATCH, file_facts
from .engine.found_payload import read_string_payload
from .engine.inline_value_limit import apply_inline_value_limit, may_exceed_inline_limit
from .engine.json_text_scan import JsonTextScan
from .engine.may_hold_files import text_may_hold_files
from .engine.text_edits import apply_edits
from .json.json_tape import ARRAY, ROOT
from .json.tokenize_json import PARSE_LIMIT_UNITS, Tokenized, tokenize_json
from .media.data_url import starts_with_data_scheme
from .recognizers.attribute_conventions import is_declared_plain_text, reads_only_parts_lists

ScanContext = Mapping[str, object]
"""The attributes of the record an attribute belongs to (``input.mime_type`` and the like)."""


@dataclass(frozen=True)
class ScanResult:
    """The value to record (the input with replaced ranges swapped, or the input itself)."""

    value: str
    changed: bool


def _scan_whole_data_url(name: str, value: str, ask: AskFile) -> str | None:
    payload = read_string_payload(value, 0, len(value), "data-url")
    if payload is None:
        return None
    facts = file_facts(NO_MATCH, payload)
    if facts is None:
        return None
    prefix = text_file_prefix(payload.source) if facts.textual else None
    decision = ask(
        FoundFile(
            key=f"{name}#" if prefix is None else f"{name}#/content",
            sha256=payload.sha256,
            size=payload.size,
            content_type=facts.content_type,
            modality=facts.modality,
            source=payload.source,
            name=facts.name,
        )
    )
    return None if decision == "keep" else blob_part_text(facts, payload.sha256, payload.size, prefix)


def _scan_media(name: str, value: str, ask: AskFile) -> tuple[str, bool]:
    """The value with its media in digest form, and whether it is JSON."""
    if starts_with_data_scheme(value, 0):
        scanned = _scan_whole_data_url(name, value, ask)
        return (value if scanned is None else scanned), False
    tokens = tokenize_json(value)
    if not isinstance(tokens, Tokenized):
        return value, tokens.reason != "malformed"
    if tokens.big_integer:
        return value, True
    if reads_only_parts_lists(name) and tokens.tape.kind(ROOT) != ARRAY:
        return value, True
    scan = JsonTextScan(
        tokens.tape,
        f"{name}#",
        ask,
        large_mode=len(value) > PARSE_LIMIT_UNITS,
        depth_base=0,
    )
    scan.walk()
    return apply_edits(value, scan.edits), True


def attribute_may_hold_files(name: str, value: str, context: ScanContext | None = None) -> bool:
    """False when :func:`scan_attribute` surely gives ``value`` back unchanged without asking.

    That is, ``value`` is within 1 MiB and either declared ``text/plain`` or, without tokenizing,
    provably free of files. Callers use it to skip setting up a scan for values without files.
    """
    if len(value) == 0:
        return False
    if may_exceed_inline_limit(value):
        return True
    return (starts_with_data_scheme(value, 0) or text_may_hold_files(value)) and not is_declared_plain_text(
        name, context
    )


def scan_attribute(name: str, value: str, decide: DecideFile, context: ScanContext | None = None) -> ScanResult:
    """Scans the value of a span or log attribute that the content table marks as scanned.

    ``decide`` is called for each file found, in reading order; files it answers ``upload`` or
    ``digest`` are put in digest form, the rest of the text is kept byte for byte. A value still
    longer than 1 MiB afterwards is offered last, as one file keyed ``<attribute>#``. Never raises:
    a value it cannot read (or a ``decide`` that raises, for that file) is left as it was.

    Args:
        name: The attribute name (the ``svc.blobs`` keys start with ``<name>#``).
        value: The attribute value: JSON text, a whole data: URL, or plain text.
        decide: Decides each file found.
        context: The record's attributes, for values declared ``text/plain``.
    """
    try:
        if not isinstance(value, str) or not attribute_may_hold_files(name, value, context):
            return ScanResult(value, False)
        ask = ask_file(decide)
        scanned = value
        is_json = False
        if not is_declared_plain_text(name, context):
            scanned, is_json = _scan_media(name, value, ask)
        recorded = apply_inline_value_limit(name, scanned, is_json, ask)
        return ScanResult(recorded, recorded is not value and recorded != value)
    except Exception:
        return ScanResult(value, False)
