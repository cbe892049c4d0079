"""Where the repository's pieces are, seen from the Python tests."""

from __future__ import annotations

import os
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]
"""The repository root (``python/tests/support`` is three levels below it)."""
FIXTURES = REPOSITORY / "fixtures"
MESSAGE_FIXTURES = FIXTURES / "messages"
MEDIA_FIXTURES = FIXTURES / "media"
SCANNER_VECTORS = FIXTURES / "scanner-vectors" / "vectors.json"
SERVER_HOST = REPOSITORY / "scripts" / "bun-sdk" / "server-host.mjs"


def node_24() -> str:
    """The project's Node 24 (the reference server needs it); ``SVC_NODE`` overrides."""
    return os.environ.get("SVC_NODE") or str(REPOSITORY / "node_modules" / ".bin" / "node")
