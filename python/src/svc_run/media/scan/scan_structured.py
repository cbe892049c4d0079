"""``scan_structured``: the inline files of a structured value (a log body) in digest form."""

from __future__ import annotations

from dataclasses import dataclass

from ..media_types import DecideFile
from .engine.ask_decide import ask_file
from .engine.structured_scan import StructuredScan, nests_within
from .json.tokenize_json import MAX_NESTING


@dataclass(frozen=True)
class StructuredScanResult:
    """The value with its files in digest form (unchanged subtrees are the input's own objects)."""

    value: object
    changed: bool


def scan_structured(value: object, key_prefix: str, decide: DecideFile) -> StructuredScanResult:
    """Scans a structured value; keys are ``<key_prefix>#<JSON pointer>``.

    Strings holding JSON are scanned as text. A value nesting past 32 levels, or holding a cycle, is
    left as it was. The input is never mutated and the function never raises.
    """
    try:
        if not nests_within(value, MAX_NESTING):
            return StructuredScanResult(value, False)
        key_base = key_prefix if key_prefix.endswith("#") else f"{key_prefix}#"
        scanned = StructuredScan(key_base, ask_file(decide)).walk(value)
        return StructuredScanResult(scanned, scanned is not value)
    except Exception:
        return StructuredScanResult(value, False)
