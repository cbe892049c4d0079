"""Reads a record's ``svc.blobs`` entries as the service does: at most 64, unparsable ones ignored."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors.invalid_option_error import InvalidOptionError
from ...options.describe import describe
from ..media_types import MAX_BLOB_ENTRIES
from .fetch_options import is_sha256


@dataclass(frozen=True)
class BlobEntry:
    """One entry of ``svc.blobs``."""

    key: str
    sha256: str
    size: int
    content_type: str
    name: str | None = None


def _parse_entry(given: object) -> BlobEntry | None:
    entry: object = given
    if isinstance(given, str):
        try:
            entry = json.loads(given)
        except ValueError:
            return None
    if not isinstance(entry, Mapping):
        return None
    key, sha256, size = entry.get("key"), entry.get("sha256"), entry.get("size")
    content_type, name = entry.get("content_type"), entry.get("name")
    if not isinstance(key, str) or not is_sha256(sha256) or not isinstance(content_type, str):
        return None
    if isinstance(size, bool) or not isinstance(size, int) or size < 0 or size > 2**53 - 1:
        return None
    assert isinstance(sha256, str)
    return BlobEntry(key, sha256, size, content_type, name if isinstance(name, str) else None)


def blob_entries_by_sha256(blobs: object) -> dict[str, BlobEntry]:
    """The entries of ``blobs`` by SHA-256 (the first entry of a digest wins).

    Raises:
        InvalidOptionError: ``blobs`` is not a list or tuple.
    """
    if isinstance(blobs, (str, bytes)) or not isinstance(blobs, Sequence):
        raise InvalidOptionError(
            "blobs must be the record's svc.blobs entries (a list of JSON strings or parsed entries; [] when it "
            f"lists none); got {describe(blobs)}"
        )
    by_sha256: dict[str, BlobEntry] = {}
    for given in list(blobs)[:MAX_BLOB_ENTRIES]:
        entry = _parse_entry(given)
        if entry is not None and entry.sha256 not in by_sha256:
            by_sha256[entry.sha256] = entry
    return by_sha256
