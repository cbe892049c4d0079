"""Overload: 100,000 spans as fast as possible, in a child process measuring its peak RSS.

The queue holds at most 2,048 spans per signal (in-flight exports included), so memory stays
bounded whatever the rate; every span is accounted for exactly: accepted + dropped = produced, and
the ``dropped`` issues add up to the dropped counter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.reference_server import ReferenceServer

CHILD = Path(__file__).parent / "children" / "overload.py"
SPANS = 100_000
MAX_RSS_GROWTH_MIB = 32
"""The bound on the child's RSS growth while it produces and exports 100,000 spans.

What the SDK may hold: 2,048 queued spans (each an SDK span with its attributes and events, about
3 KiB with the interpreter's allocator overhead: ~6 MiB), one 512-span OTLP request being built and
sent (~1 MiB), the kept issues, and the allocator's pools. An unbounded queue would hold all 100,000
spans (~300 MiB)."""


def test_100000_spans_keep_memory_bounded_and_every_drop_is_counted(server: ReferenceServer) -> None:
    config = json.dumps({"origin": server.origin, "key": server.keys.tracing, "spans": SPANS})
    completed = subprocess.run(
        [sys.executable, str(CHILD), config], capture_output=True, text=True, check=False, timeout=600
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["pending"] == 0
    assert result["failed"] == 0
    assert result["rejected"] == 0
    assert result["accepted"] + result["dropped"] == SPANS
    assert result["dropped"] > 0
    assert result["dropped_issues"] == result["dropped"]
    assert result["growth"] / (1024 * 1024) < MAX_RSS_GROWTH_MIB
