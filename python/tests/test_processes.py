"""Processes and threads: fork (Gunicorn --preload), asyncio tasks, thread pools, interpreter exit,
and the flush call of serverless handlers."""

from __future__ import annotations

import asyncio
import contextvars
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from support.clients import Clients
from support.reference_server import ReferenceServer
from svc_run import with_current_context

CHILDREN = Path(__file__).parent / "children"


def run_child(name: str, server: ReferenceServer) -> dict[str, object]:
    config = json.dumps({"origin": server.origin, "key": server.keys.tracing})
    completed = subprocess.run(
        [sys.executable, str(CHILDREN / name), config], capture_output=True, text=True, check=False, timeout=300
    )
    assert completed.returncode == 0, completed.stderr
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, completed.stdout
    result: dict[str, object] = json.loads(lines[0])
    return result


def test_a_preloading_parent_that_forks_two_workers_gets_both_workers_spans(server: ReferenceServer) -> None:
    result = run_child("preload_fork.py", server)
    workers = result["workers"]
    assert isinstance(workers, list)
    assert [worker["exit_code"] for worker in workers] == [0, 0]
    assert result["parent_accepted"] == 1
    for index, worker in enumerate(workers):
        spans = server.list_spans(worker["trace_id"])
        assert [span["name"] for span in spans] == ["worker request"]
        index_value = next(item for item in spans[0]["attributes"] if item["key"] == "worker.index")
        assert index_value["value"] == {"intValue": str(index)}


def test_a_process_that_exits_without_flushing_still_delivers_its_spans(server: ReferenceServer) -> None:
    result = run_child("exit_without_flush.py", server)
    assert (result["accepted"], result["failed"], result["pending"]) == (2, 0, 0)
    assert sorted(span["name"] for span in server.list_spans(str(result["trace_id"]))) == ["inner", "last request"]


def test_the_exit_flush_ends_within_its_budget_when_the_service_hangs(server: ReferenceServer) -> None:
    server.inject("otlp.traces", {"kind": "hang", "millis": 60_000})
    result = run_child("exit_without_flush.py", server)
    # The budget ran out with the export in flight: it was ended and counted, not waited for.
    assert (result["accepted"], result["failed"], result["pending"]) == (0, 2, 0)


def test_spans_in_asyncio_gather_tasks_keep_their_parent(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()

    async def task(name: str, ready: asyncio.Event, other: asyncio.Event) -> str:
        async with svc.span(name) as span:
            ready.set()
            await other.wait()  # both tasks are inside their spans at once
            async with svc.span(f"{name} step"):
                await asyncio.sleep(0)
            return span.span_id

    async def main() -> tuple[str, str, str]:
        async with svc.span("gather") as root:
            a_ready, b_ready = asyncio.Event(), asyncio.Event()
            a, b = await asyncio.gather(task("a", a_ready, b_ready), task("b", b_ready, a_ready))
            return root.trace_id, a, b

    trace_id, a_id, b_id = asyncio.run(main())
    assert svc.force_flush()
    spans = {span["name"]: span for span in server.list_spans(trace_id)}
    assert spans["a"]["parentSpanId"] == spans["gather"]["spanId"]
    assert spans["b"]["parentSpanId"] == spans["gather"]["spanId"]
    assert spans["a step"]["parentSpanId"] == a_id
    assert spans["b step"]["parentSpanId"] == b_id


def test_spans_in_a_thread_pool_keep_their_parent(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()

    def work(name: str) -> str:
        with svc.span(name) as span:
            return span.span_id

    with svc.span("fan out", session_id="sess-7") as root, ThreadPoolExecutor(max_workers=2) as pool:
        wrapped = [pool.submit(with_current_context(work), f"wrapped {i}") for i in range(2)]
        copied = [pool.submit(contextvars.copy_context().run, work, f"copied {i}") for i in range(2)]
        bare = pool.submit(work, "bare")
        ids = [future.result() for future in (*wrapped, *copied)]
        bare.result()
    assert svc.force_flush()
    spans = {span["name"]: span for span in server.list_spans(root.trace_id)}
    for name in ("wrapped 0", "wrapped 1", "copied 0", "copied 1"):
        assert spans[name]["parentSpanId"] == root.span_id
        attributes = {item["key"]: item["value"] for item in spans[name]["attributes"]}
        assert attributes["gen_ai.conversation.id"] == {"stringValue": "sess-7"}
    assert len(ids) == 4
    # Without the context, a pool thread starts a trace of its own (documented in the README).
    assert "bare" not in spans


def test_a_serverless_handler_flushes_before_returning(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()

    def handler(event: dict[str, str]) -> dict[str, str]:
        try:
            with svc.span("handler", input=event) as span:
                span.set_output({"ok": "yes"})
                return {"trace_id": span.trace_id}
        finally:
            svc.flush()

    result = handler({"path": "/"})
    # Flushed before the handler returned: nothing is left to lose when the runtime freezes.
    assert svc.export_status.pending_spans == 0
    assert [span["name"] for span in server.list_spans(result["trace_id"])] == ["handler"]
