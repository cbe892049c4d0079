"""Memory of large uploads: a 1 GB ``path`` attachment and a 200 MB base64 image inside a span
attribute upload with bounded memory. Each is recorded in a child process that measures its own
peak RSS growth from just before recording to the end of the flush.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from support.reference_server import ReferenceServer

CHILD = Path(__file__).parent / "children" / "upload_memory.py"
MIB = 1024 * 1024
MAX_RSS_GROWTH_MIB = 32
"""The bound on the child's RSS growth while it records, exports and uploads the file.

What the SDK may hold: two 1 MiB slice buffers per upload (reused, see ``upload_body.py``), one
base64 slice being decoded (its text, its ASCII bytes and the decoded bytes: under 4 MiB), the
hashing state, the sockets' buffers, and the span and its OTLP request (small: the file is a digest
in it). A decoded copy of either file (150 MB, 1 GB) exceeds the bound many times over.
"""


def run_child(config: dict[str, Any]) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, str(CHILD), json.dumps(config)], capture_output=True, text=True, check=False, timeout=900
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def stored_size(server: ReferenceServer, trace_id: str, sha256: str) -> int:
    """The size the service's download-link route gives for a stored file (the bytes are not read)."""
    request = urllib.request.Request(
        f"{server.origin}/api/v1/traces/{trace_id}/blobs/{sha256}",
        headers={"authorization": f"Bearer {server.keys.read}"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())
    assert answer["sha256"] == sha256
    return int(answer["size"])


@pytest.mark.memory
def test_a_1_gb_path_attachment_uploads_with_bounded_memory(server: ReferenceServer, tmp_path: Path) -> None:
    path = tmp_path / "one-gigabyte.bin"
    with path.open("wb") as handle:
        handle.truncate(1_000_000_000)  # a sparse file of zeros: no disk needed to read it
    result = run_child({"mode": "path", "origin": server.origin, "key": server.keys.tracing, "path": str(path)})
    assert result["flushed"], result["issues"]
    assert result["size"] == 1_000_000_000
    assert (result["accepted"], result["uploaded"], result["fallbacks"]) == (1, 1, 0)
    assert stored_size(server, result["trace_id"], result["sha256"]) == 1_000_000_000
    assert result["growth"] / MIB < MAX_RSS_GROWTH_MIB
    os.remove(path)


@pytest.mark.memory
def test_a_200_mb_base64_attribute_uploads_with_bounded_memory(server: ReferenceServer) -> None:
    size = 150_000_009  # 200,000,012 base64 characters
    result = run_child({"mode": "base64", "origin": server.origin, "key": server.keys.tracing, "bytes": size})
    assert result["flushed"], result["issues"]
    assert result["size"] == size
    assert (result["accepted"], result["uploaded"], result["fallbacks"]) == (1, 1, 0)
    assert stored_size(server, result["trace_id"], result["sha256"]) == size
    assert result["growth"] / MIB < MAX_RSS_GROWTH_MIB
