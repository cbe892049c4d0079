"""The recorded-message fixtures of ``fixtures/messages`` (real provider formats), as data."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from .paths import MEDIA_FIXTURES, MESSAGE_FIXTURES


@cache
def fixture_sets() -> dict[str, list[dict[str, Any]]]:
    """Each module's fixtures, by module name (``openai-chat``, ``gemini``, ...)."""
    return {
        path.stem: json.loads(path.read_text("utf-8"))["fixtures"] for path in sorted(MESSAGE_FIXTURES.glob("*.json"))
    }


def all_fixtures() -> list[dict[str, Any]]:
    """Every fixture of every module."""
    return [fixture for fixtures in fixture_sets().values() for fixture in fixtures]


def attribute_text(fixture: dict[str, Any]) -> str:
    """The attribute's text: ``JSON.stringify(value)``, or the value itself for ``text`` fixtures."""
    if fixture.get("text") is True:
        return str(fixture["value"])
    return json.dumps(fixture["value"], separators=(",", ":"), ensure_ascii=False)


def blob_key(fixture: dict[str, Any], file: dict[str, Any]) -> str:
    """The ``svc.blobs`` key of a fixture's file."""
    return f"{fixture['attribute']}#{file['pointer']}"


@cache
def media_by_sha256() -> dict[str, bytes]:
    """The bytes of ``fixtures/media`` by SHA-256."""
    files = [path for path in MEDIA_FIXTURES.iterdir() if path.suffix in (".png", ".wav", ".pcm", ".pdf")]
    return {hashlib.sha256(path.read_bytes()).hexdigest(): path.read_bytes() for path in files}
