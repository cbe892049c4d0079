"""The shared scanner vectors of ``fixtures/scanner-vectors``, run against the Python scanner.

The same file runs in the TypeScript suite (``shared-vectors.test.ts``): a vector added there runs
here too, and fails the suite whose scanner disagrees. Expectations come from the spec's rules
(see ``generate.mjs``), never from running a scanner.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from support.paths import SCANNER_VECTORS
from svc_run.export.media_export import blob_entry
from svc_run.media.media_types import Base64Source, BytesSource, FileDecision, FoundFile, Utf8Source
from svc_run.media.scan.scan_attribute import scan_attribute
from svc_run.media.scan.scan_structured import scan_structured

_DOCUMENT: dict[str, Any] = json.loads(SCANNER_VECTORS.read_text("utf-8"))
_VECTORS: list[dict[str, Any]] = _DOCUMENT["vectors"]
_VECTOR_FIELDS = {"name", "rule", "kind", "attribute", "context", "input", "decisions", "expect"}
_EXPECT_FIELDS = {"output", "files", "blobs"}
_FILE_FIELDS = {"key", "sha256", "size", "content_type", "modality", "source", "name"}


def _expand(text: str | dict[str, Any]) -> str:
    if isinstance(text, str):
        return text
    return "".join(piece * count for piece, count in text["join"])


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _source_kind(file: FoundFile) -> str:
    if isinstance(file.source, Base64Source):
        return "base64"
    if isinstance(file.source, BytesSource):
        return "bytes"
    if isinstance(file.source, Utf8Source):
        return "utf8"
    return "path"


def _described(file: FoundFile) -> dict[str, object]:
    described: dict[str, object] = {
        "key": file.key,
        "sha256": file.sha256,
        "size": file.size,
        "content_type": file.content_type,
        "modality": file.modality,
        "source": _source_kind(file),
    }
    if file.name is not None:
        described["name"] = file.name
    return described


def test_the_vector_file_has_vectors_with_unique_names() -> None:
    names = [vector["name"] for vector in _VECTORS]
    assert len(names) >= 50
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("vector", _VECTORS, ids=[vector["name"] for vector in _VECTORS])
def test_vector(vector: dict[str, Any]) -> None:
    # A vector using a field this runner does not know fails instead of being half-checked.
    assert set(vector) <= _VECTOR_FIELDS, set(vector) - _VECTOR_FIELDS
    assert set(vector["expect"]) == _EXPECT_FIELDS
    for expected_file in vector["expect"]["files"]:
        assert set(expected_file) <= _FILE_FIELDS
    decisions: list[FileDecision] = vector.get("decisions", [])
    offered: list[FoundFile] = []
    answered: list[FileDecision] = []

    def decide(file: FoundFile) -> FileDecision:
        decision = decisions[len(offered)] if len(offered) < len(decisions) else "upload"
        offered.append(file)
        answered.append(decision)
        return decision

    if vector["kind"] == "attribute":
        text = _expand(vector["input"])
        result = scan_attribute(vector["attribute"], text, decide, vector.get("context"))
        expected_output = _expand(vector["expect"]["output"])
        assert result.value == expected_output
        assert result.changed == (expected_output != text)
    else:
        assert vector["kind"] == "structured"
        structured = scan_structured(vector["input"], vector["attribute"], decide)
        assert _compact(structured.value) == _compact(vector["expect"]["output"])
        assert structured.changed == (_compact(vector["input"]) != _compact(vector["expect"]["output"]))
    assert [_described(file) for file in offered] == vector["expect"]["files"]
    uploaded = [blob_entry(file) for file, decision in zip(offered, answered, strict=True) if decision == "upload"]
    assert uploaded == vector["expect"]["blobs"]
