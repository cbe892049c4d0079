"""Every ``python`` code block of the README runs as it is against the reference server.

Each block is a program of its own, run in a child process with the variables the README says
``svc serve`` writes (``SVC_BASE_URL``, ``SVC_API_KEY``, ``SVC_READ_KEY``), and must exit 0.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.reference_server import ReferenceServer

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)


def _first_comment_or_call(block: str) -> str:
    line = next(line for line in block.splitlines() if line and not line.startswith(("import", "from")))
    return re.sub(r"\W+", "-", line)[:40].strip("-")


def test_the_readme_has_runnable_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{i}-{_first_comment_or_call(b)}" for i, b in enumerate(BLOCKS)])
def test_readme_example_runs(block: str, server: ReferenceServer, tmp_path: Path) -> None:
    program = tmp_path / "example.py"
    program.write_text(block, encoding="utf-8")
    env = {
        **os.environ,
        "SVC_BASE_URL": server.origin,
        "SVC_API_KEY": server.keys.tracing,
        "SVC_READ_KEY": server.keys.read,
    }
    completed = subprocess.run(
        [sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert server.keys.tracing not in completed.stdout + completed.stderr
