"""The convention fixtures of the TypeScript SDK's content tests, loaded as data.

``packages/sdk/src/content/__fixtures__/*.ts``: span attributes as each convention's
instrumentation records them, and the names that are content. The TypeScript and Python
capture-off tests read the same fixtures (Node 24 imports the TypeScript modules, stripping types).
"""

from __future__ import annotations

import json
import subprocess
from functools import cache
from typing import Any

from .paths import REPOSITORY, node_24

_MODULES = ("genai-semconv", "ai-sdk", "openinference", "openllmetry", "pydantic-ai", "langfuse")
_SCRIPT = """
const dir = new URL(process.argv[1]);
const out = [];
for (const name of JSON.parse(process.argv[2])) {
  const module = await import(new URL(`${name}.ts`, dir));
  out.push(...Object.values(module));
}
process.stdout.write(JSON.stringify(out));
"""


@cache
def convention_fixtures() -> list[dict[str, Any]]:
    """Each convention fixture: ``convention``, ``source``, ``spanName``, ``attributes``, ``contentAttributes``."""
    directory = (REPOSITORY / "packages" / "sdk" / "src" / "content" / "__fixtures__").as_uri() + "/"
    output = subprocess.run(
        [node_24(), "--input-type=module", "-e", _SCRIPT, directory, json.dumps(list(_MODULES))],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    fixtures: list[dict[str, Any]] = json.loads(output)
    return fixtures
