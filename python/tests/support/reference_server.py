"""The reference server in a Node child process, as the Python tests use it.

``scripts/bun-sdk/server-host.mjs`` starts the built ``@svc-run/server`` on an ephemeral port and a
control server for the test-only calls (``faults.*``, ``traceStore.*``). The child exits when its
stdin closes, so it never outlives the test process.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import urllib.request
from dataclasses import dataclass
from typing import Any

from .paths import SERVER_HOST, node_24


@dataclass(frozen=True)
class ServerKeys:
    """The project's keys, one per preset (never printed by the tests)."""

    tracing: str
    read: str
    read_write: str
    setup: str

    def __repr__(self) -> str:
        return "ServerKeys(<hidden>)"


class ReferenceServer:
    """A running reference server."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        env = {**os.environ, "NODE_OPTIONS": "--disable-warning=ExperimentalWarning"}
        self._process = subprocess.Popen(
            [node_24(), str(SERVER_HOST), json.dumps(options or {})],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            env=env,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            self._process.wait(timeout=30)
            raise RuntimeError(f"the reference server did not start (exit code {self._process.returncode})")
        ready = json.loads(line)
        self.origin: str = ready["origin"]
        keys = ready["keys"]
        self.keys = ServerKeys(keys["tracing"], keys["read"], keys["readWrite"], keys["setup"])
        self.data_dir: str = ready["dataDir"]
        self.project: dict[str, str] = ready["project"]
        self._control: str = ready["control"]
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ReferenceServer({self.origin})"

    def call(self, target: str, method: str, *args: Any) -> Any:
        """Runs ``server.<target>.<method>(*args)`` in the server process."""
        body = json.dumps({"target": target, "method": method, "args": list(args)}).encode()
        request = urllib.request.Request(f"{self._control}/call", data=body, method="POST")
        with self._lock, urllib.request.urlopen(request, timeout=60) as response:
            answer = json.loads(response.read())
        if "error" in answer:
            raise RuntimeError(f"{target}.{method}: {answer['error']['message']}")
        value = answer.get("value")
        if isinstance(value, dict) and isinstance(value.get("$set"), list):
            return set(value["$set"])
        return value

    def inject(self, route: str, fault: dict[str, Any], times: int = 1) -> None:
        """Makes the next ``times`` requests of ``route`` meet ``fault`` (status, hang or reset)."""
        self.call("faults", "inject", route, fault, times)

    def pending_faults(self, route: str) -> int:
        """Faults still queued for ``route``."""
        return int(self.call("faults", "pending", route))

    def clear_faults(self) -> None:
        """Removes every queued fault."""
        self.call("faults", "clear")

    def list_spans(self, trace_id: str) -> list[dict[str, Any]]:
        """The stored spans of a trace (the server's own read of its store)."""
        spans = self.call("traceStore", "listSpans", trace_id)
        return list(spans or [])

    def list_logs(self, trace_id: str) -> list[dict[str, Any]]:
        """The stored log records of a trace."""
        logs = self.call("traceStore", "listLogs", trace_id)
        return list(logs or [])

    def close(self) -> None:
        """Closes the server and waits for the child to exit."""
        if self._process.poll() is not None:
            return
        with contextlib.suppress(OSError):
            urllib.request.urlopen(urllib.request.Request(f"{self._control}/close", method="POST"), timeout=30).read()
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
