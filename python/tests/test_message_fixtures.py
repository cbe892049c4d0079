"""The recorded-message fixtures of real provider and framework formats (``fixtures/messages``):
the scanner finds exactly the files each fixture lists, and every digest-form part restores to the
same file."""

from __future__ import annotations

import json
from typing import Any

import pytest

from support.message_fixtures import all_fixtures, attribute_text, blob_key, media_by_sha256
from svc_run.media.media_types import FileDecision, FoundFile
from svc_run.media.read.digest_locations import parse_json_text
from svc_run.media.scan.find_digest_holders import find_digest_holders
from svc_run.media.scan.json.json_pointer import parse_pointer
from svc_run.media.scan.scan_attribute import scan_attribute
from svc_run.media.scan.scan_structured import scan_structured

FIXTURES = all_fixtures()


def _parsed_values(value: object, found: list[object] | None = None) -> list[object]:
    """``value`` and the parses of the strings in it that hold JSON (recursively)."""
    found = [] if found is None else found
    found.append(value)

    def visit(item: object) -> None:
        if isinstance(item, str):
            parsed = parse_json_text(item)
            if parsed is not None:
                _parsed_values(parsed, found)
        elif isinstance(item, dict):
            for child in item.values():
                visit(child)
        elif isinstance(item, list):
            for child in item:
                visit(child)

    visit(value)
    return found


def _at(value: object, pointer: str) -> object:
    node = value
    for token in parse_pointer(pointer) or []:
        if isinstance(node, str):
            node = json.loads(node)
        node = node[int(token)] if isinstance(node, list) else node[token]  # type: ignore[index]
    return node


def test_there_are_fixtures_of_every_module() -> None:
    assert len(FIXTURES) > 30


@pytest.mark.parametrize("fixture", FIXTURES, ids=[fixture["name"] for fixture in FIXTURES])
def test_fixture(fixture: dict[str, Any]) -> None:
    offered: list[FoundFile] = []

    def decide(file: FoundFile) -> FileDecision:
        offered.append(file)
        return "upload"

    if fixture["attribute"] == "body":
        recorded: object = scan_structured(fixture["value"], "body", decide).value
    else:
        text = scan_attribute(fixture["attribute"], attribute_text(fixture), decide, fixture.get("spanAttributes"))
        recorded = parse_json_text(text.value) or text.value
    assert [(f.key, f.sha256, f.size, f.content_type, f.name) for f in offered] == [
        (blob_key(fixture, file), file["sha256"], file["size"], file["mediaType"], file.get("name"))
        for file in fixture["files"]
    ]
    # Reading back: every digest-form part restores, with the file's bytes, to the same file.
    holders = [holder for value in _parsed_values(recorded) for holder in find_digest_holders(value)]
    assert len(holders) == len(fixture["files"])
    media = media_by_sha256()
    for holder in holders:
        file = next(candidate for candidate in offered if candidate.sha256 == holder.sha256)
        again: list[FoundFile] = []

        def keep(found: FoundFile, seen: list[FoundFile] = again) -> FileDecision:
            seen.append(found)
            return "keep"

        scan_structured(holder.restore(media[file.sha256], file.content_type), "body", keep)
        assert [(f.sha256, f.size) for f in again] == [(file.sha256, file.size)]
    original = fixture["value"] if fixture.get("text") else json.loads(attribute_text(fixture))
    for kept in fixture.get("kept", []):
        assert _at(recorded, kept["pointer"]) == _at(original, kept["pointer"]), kept["reason"]
