"""``verify_trace`` (spec "Trace receipt", Verification limits) and ``validate_project`` against the
reference server and against answers it does not give."""

from __future__ import annotations

import json
import os
import socket
from http.server import BaseHTTPRequestHandler

import pytest

from support.clients import Clients
from support.plain_server import answer, plain_server
from support.reference_server import ReferenceServer
from svc_run import InvalidOptionError, Svc, SvcConnectionError, SvcTraceVerificationError


def trace_id() -> str:
    return os.urandom(16).hex()


def span_id() -> str:
    return os.urandom(8).hex()


def test_verify_polls_until_a_late_span_arrives_and_reports_a_partial_receipt(clients: Clients) -> None:
    svc = clients()
    with svc.span("stored") as stored:
        pass
    assert svc.force_flush()
    missing = span_id()
    partial = svc.verify_trace(stored.trace_id, [stored.span_id, missing], timeout_millis=600)
    assert partial.verified is False
    assert partial.receipt is not None
    assert partial.receipt.matched_span_ids == [stored.span_id]
    assert partial.receipt.missing_span_ids == [missing]
    fields = svc.verify_trace(stored.trace_id, [stored.span_id], ["model"], timeout_millis=600)
    assert fields.verified is False
    assert fields.receipt is not None
    assert fields.receipt.fields["model"] is False


def test_verify_returns_no_receipt_for_a_trace_that_never_arrives(clients: Clients) -> None:
    svc = clients()
    result = svc.verify_trace(trace_id(), timeout_millis=500)
    assert (result.verified, result.receipt) == (False, None)


def test_verify_collapses_duplicates_and_works_with_a_read_key(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("one") as span:
        pass
    assert svc.force_flush()
    reader = clients(key=server.keys.read)
    result = reader.verify_trace(span.trace_id, [span.span_id, span.span_id], timeout_millis=2_000)
    assert result.verified
    assert result.receipt is not None
    assert result.receipt.matched_span_ids == [span.span_id]
    assert result.receipt.trace_url == f"{server.origin}/traces/{span.trace_id}"


def test_verify_retries_429_and_503_then_verifies(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("one") as span:
        pass
    assert svc.force_flush()
    server.inject("traces.receipt", {"kind": "status", "status": 429, "retryAfterSeconds": 1})
    server.inject("traces.receipt", {"kind": "status", "status": 503, "retryAfterSeconds": 0})
    assert svc.verify_trace(span.trace_id, [span.span_id], timeout_millis=10_000).verified
    assert server.pending_faults("traces.receipt") == 0


def test_verify_failures_raise_with_a_code_and_never_a_key(clients: Clients, server: ReferenceServer) -> None:
    invalid = "svc_tracing_not-a-real-key-0123456789"
    with pytest.raises(SvcTraceVerificationError) as raised:
        clients(key=invalid).verify_trace(trace_id(), timeout_millis=1_000)
    assert (raised.value.code, raised.value.status) == ("unauthorized", 401)
    assert invalid not in str(raised.value)
    server.inject("traces.receipt", {"kind": "reset"})
    with pytest.raises(SvcTraceVerificationError) as reset:
        clients().verify_trace(trace_id(), timeout_millis=1_000)
    assert (reset.value.code, reset.value.status) == ("connection_failed", None)
    server.inject("traces.receipt", {"kind": "hang", "millis": 1_000})
    with pytest.raises(SvcTraceVerificationError) as slow:
        clients(timeout_millis=200).verify_trace(trace_id(), timeout_millis=3_000)
    assert slow.value.code == "connection_failed"
    assert "did not answer within 200 ms" in str(slow.value)


def _verify_against(handle: object) -> SvcTraceVerificationError:
    with plain_server(handle) as origin:  # type: ignore[arg-type]
        svc = Svc(api_key="svc_tracing_x", service_name="v", capture_content=False, base_url=origin)
        with pytest.raises(SvcTraceVerificationError) as raised:
            svc.verify_trace(trace_id(), timeout_millis=1_000)
    assert "svc_tracing_x" not in str(raised.value)
    return raised.value


def test_verify_against_answers_the_reference_server_does_not_give() -> None:
    requests: list[str] = []

    def redirect(request: BaseHTTPRequestHandler) -> None:
        requests.append(request.path)
        answer(request, 302, headers={"location": "/elsewhere"})

    error = _verify_against(redirect)
    assert (error.code, error.status, len(requests)) == ("redirect", 302, 1)
    error = _verify_against(lambda r: answer(r, 200, b"not json, secret body"))
    assert (error.code, error.status) == ("malformed_response", 200)
    assert "secret body" not in str(error)
    error = _verify_against(lambda r: answer(r, 200, b'{"traceId":"x"}'))
    assert error.code == "malformed_response"

    def oversized(request: BaseHTTPRequestHandler) -> None:
        traced = request.path.split("/")[4]
        receipt = {
            "traceId": traced,
            "spanCount": 1,
            "revision": 1,
            "fields": {},
            "matchedSpanIds": [],
            "missingSpanIds": [],
            "traceUrl": "x" * (70 * 1024),
        }
        answer(request, 200, json.dumps(receipt).encode())

    error = _verify_against(oversized)
    assert error.code == "malformed_response"
    assert "64 KiB" in str(error)
    error = _verify_against(lambda r: answer(r, 404, b"<h1>Not Found</h1>"))
    assert (error.code, error.status) == ("unsupported_endpoint", 404)
    assert _verify_against(lambda r: answer(r, 403)).code == "forbidden"
    assert (_verify_against(lambda r: answer(r, 500)).code, 500) == ("http_error", 500)


def test_verify_refuses_bad_arguments_before_any_request(clients: Clients) -> None:
    svc = clients()
    cases = [
        (("X" * 32,), "trace_id must be 32 lowercase hex characters, not all zero; got "),
        (("0" * 32,), "trace_id must be 32 lowercase hex characters, not all zero"),
        ((trace_id(), "abc"), "expected_span_ids must be a list of span IDs; got "),
        ((trace_id(), ["0" * 16]), "expected_span_ids[0] must be 16 lowercase hex characters, not all zero"),
        (
            (trace_id(), [f"{i:016x}" for i in range(1, 102)]),
            "expected_span_ids must hold at most 100 unique span IDs; got 101",
        ),
        (
            (trace_id(), None, ["input", "input"]),
            'required_fields must hold unique field names; got "input" more than once',
        ),
        ((trace_id(), None, [""]), 'required_fields[0] must be a nonempty string; got ""'),
        ((trace_id(), None, None, 0), "timeout_millis must be a positive finite number of at most 60000; got 0"),
        (
            (trace_id(), None, None, 60_001),
            "timeout_millis must be a positive finite number of at most 60000; got 60001",
        ),
    ]
    for arguments, message in cases:
        with pytest.raises(InvalidOptionError) as raised:
            svc.verify_trace(*arguments)  # type: ignore[arg-type]
        assert str(raised.value).startswith(message)
    # 100 unique IDs (with duplicates) are fine.
    ids = [f"{i:016x}" for i in range(1, 101)]
    assert svc.verify_trace(trace_id(), ids + ids[:5], timeout_millis=200).verified is False


def test_validate_project_returns_the_project_and_fails_clearly(clients: Clients, server: ReferenceServer) -> None:
    project = clients().validate_project()
    assert (project.id, project.name, project.organization_id, project.slug) == (
        server.project["id"],
        server.project["name"],
        server.project["organizationId"],
        server.project["slug"],
    )
    assert clients(key=server.keys.read).validate_project() == project
    invalid = "svc_tracing_not-valid-00000000000000000000"
    with pytest.raises(SvcConnectionError) as raised:
        clients(key=invalid).validate_project()
    assert raised.value.status == 401
    assert invalid not in str(raised.value)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    closed = Svc(api_key="k", service_name="s", capture_content=False, base_url=f"http://127.0.0.1:{port}")
    with pytest.raises(SvcConnectionError) as refused:
        closed.validate_project()
    assert refused.value.status is None
    assert "ECONNREFUSED" in str(refused.value)
    with plain_server(lambda r: answer(r, 200, b'{"id": 1}')) as origin:
        odd = Svc(api_key="k", service_name="s", capture_content=False, base_url=origin)
        with pytest.raises(SvcConnectionError, match="invalid response to the connection check"):
            odd.validate_project()
    # The check sends no telemetry.
    assert clients().export_status.accepted_spans == 0
