"""Export under faults injected by the reference server's fault hooks.

429 with Retry-After, 503, reset connections, slow answers, a Read key, a key that is not valid and
a revoked key: every record ends in exactly one counter, issues say why without keys or bodies,
the safe variants return within their deadline, and the application's results and exceptions are
never changed.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from support.clients import Clients
from support.reference_server import ReferenceServer
from svc_run import ExportStatus, Svc, SvcExportError, create_svc_safe


def produce(svc: Svc, count: int) -> list[int]:
    """``count`` spans through the application path; returns what the application's work returned."""
    results = []
    for i in range(count):
        with svc.span(f"work {i}"):
            results.append(i * 2)
    return results


def settled(status: ExportStatus) -> int:
    return status.accepted_spans + status.rejected_spans + status.failed_spans + status.dropped_spans


def test_429_with_retry_after_is_retried_and_then_everything_is_stored(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    server.inject("otlp.traces", {"kind": "status", "status": 429, "retryAfterSeconds": 1})
    assert produce(svc, 10) == [i * 2 for i in range(10)]
    assert svc.force_flush()
    status = svc.export_status
    assert (status.accepted_spans, status.failed_spans, status.pending_spans) == (10, 0, 0)
    assert server.pending_faults("otlp.traces") == 0


def test_a_reset_connection_is_retried(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    server.inject("otlp.traces", {"kind": "reset"})
    produce(svc, 3)
    assert svc.force_flush()
    assert svc.export_status.accepted_spans == 3


def test_503_until_the_attempts_run_out_fails_and_a_later_flush_reports_only_new_failures(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    server.inject("otlp.traces", {"kind": "status", "status": 503, "retryAfterSeconds": 0}, 5)
    produce(svc, 4)
    with pytest.raises(SvcExportError) as raised:
        svc.flush()
    issues = raised.value.issues
    assert [(issue.kind, issue.count, issue.status, issue.signal) for issue in issues] == [("failed", 4, 503, "traces")]
    assert issues[0].message == "4 spans not exported: the service answered HTTP 503"
    report = raised.value.report
    assert (report.failed_spans, report.pending_spans, settled(report)) == (4, 0, 4)
    assert server.pending_faults("otlp.traces") == 0
    produce(svc, 2)
    status = svc.flush()
    assert (status.accepted_spans, status.failed_spans) == (2, 4)


@pytest.mark.parametrize(
    ("key_name", "status", "hint"),
    [
        ("read", 403, "use a Tracing key, not a Read key"),
        ("invalid", 401, "use a valid, unrevoked project key"),
    ],
)
def test_a_read_key_and_a_key_that_is_not_valid_fail_with_a_clear_issue(
    key_name: str, status: int, hint: str, clients: Clients, server: ReferenceServer
) -> None:
    key = server.keys.read if key_name == "read" else "svc_tracing_notAValidKeyAtAll000000000000000000000000000"
    svc = clients(key=key)
    produce(svc, 2)
    assert not svc.force_flush()
    issue = svc.export_status.issues[0]
    assert (issue.kind, issue.status, issue.count) == ("failed", status, 2)
    assert hint in issue.message
    assert key not in repr(svc.export_status)


def test_a_key_revoked_in_the_service_fails_with_401(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first = ReferenceServer({"dataDir": str(data_dir)})
    revoked_key = first.keys.tracing
    first.close()
    with sqlite3.connect(data_dir / "svc.sqlite") as db:
        db.execute("UPDATE api_keys SET revoked_at = '2026-11-21T00:00:00Z' WHERE preset = 'tracing'")
    second = ReferenceServer({"dataDir": str(data_dir)})
    try:
        svc = Svc(api_key=revoked_key, service_name="revoked", capture_content=True, base_url=second.origin)
        produce(svc, 2)
        with pytest.raises(SvcExportError) as raised:
            svc.flush()
        issue = raised.value.issues[0]
        assert (issue.kind, issue.status, issue.count) == ("failed", 401, 2)
        assert "use a valid, unrevoked project key" in issue.message
        assert revoked_key not in str(raised.value)
        svc.shutdown_safe()
    finally:
        second.close()


def test_answers_slower_than_the_timeout_count_as_failed_and_results_are_unchanged(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients(timeout_millis=200)
    server.inject("otlp.traces", {"kind": "hang", "millis": 1_000}, 5)
    assert produce(svc, 3) == [0, 2, 4]
    with pytest.raises(SvcExportError) as raised:
        svc.flush()
    assert "did not answer within the timeout" in raised.value.issues[0].message
    assert settled(raised.value.report) == 3


def test_the_safe_variants_return_within_their_deadline_while_the_service_hangs(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients(timeout_millis=60_000)
    server.inject("otlp.traces", {"kind": "hang", "millis": 20_000})
    produce(svc, 1)
    # Had it waited for the hanging export, the span would no longer be pending.
    assert svc.force_flush_safe(300) is False
    assert svc.export_status.pending_spans == 1
    assert svc.shutdown_safe(300) is False
    after = svc.export_status
    assert after.pending_spans == 0
    assert after.failed_spans == 1
    assert after.issues[-1].message == "1 spans not exported: the export was ended by shutdown"


def test_the_safe_client_never_changes_the_applications_results_or_errors(server: ReferenceServer) -> None:
    server.inject("otlp.traces", {"kind": "status", "status": 503, "retryAfterSeconds": 0}, 20)
    svc = create_svc_safe(
        api_key=server.keys.tracing, service_name="safe", capture_content=True, base_url=server.origin
    )
    assert svc.enabled
    error = ValueError("the application's own error")
    with pytest.raises(ValueError, match=r"^the application's own error$") as raised, svc.span("work"):
        raise error
    assert raised.value is error
    with svc.span("work", session_id="") as handle:  # an invalid option: no span, the work runs once
        ran = handle.trace_id
    assert ran == "0" * 32
    assert svc.tool("t", {}, lambda: "result") == "result"
    assert svc.force_flush_safe() is False
    # No failure since the previous flush: the shutdown itself went well.
    assert svc.shutdown_safe() is True
    status = svc.export_status
    assert (status.failed_spans, status.accepted_spans, status.pending_spans) == (2, 0, 0)


def test_every_record_ends_in_exactly_one_counter_across_faults(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    server.inject("otlp.traces", {"kind": "status", "status": 503, "retryAfterSeconds": 0}, 5)
    produce(svc, 5)
    svc.force_flush()
    server.inject("otlp.traces", {"kind": "reset"}, 2)
    produce(svc, 5)
    svc.force_flush()
    produce(svc, 5)
    svc.force_flush()
    status = svc.export_status
    assert settled(status) == 15
    assert status.pending_spans == 0
    assert (status.accepted_spans, status.failed_spans) == (10, 5)


def test_overlapping_flushes_share_the_work(clients: Clients) -> None:
    from concurrent.futures import ThreadPoolExecutor

    svc = clients()
    produce(svc, 5)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: svc.force_flush(), range(2)))
    assert results == [True, True]
    assert svc.export_status.accepted_spans == 5
