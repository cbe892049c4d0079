"""The export pipeline (spec "Export report", "Export issue", "Limits": queue and batches).

OTLP/HTTP protobuf in batches of at most 512, partial success counted as rejected, invalid
acknowledgements, issues kept (the latest 128) and delivered to ``on_export_issue``, the upload
concurrency of 4, the 128 MiB budget, and the global providers left alone.
"""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler

from opentelemetry import _logs, trace
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from support.clients import Clients
from support.plain_server import answer, plain_server
from support.reference_server import ReferenceServer
from svc_run import Attachment, ExportIssue, Svc

MIB = 1024 * 1024


class OtlpStub:
    """An OTLP/HTTP trace route answering as told; records the spans of every request."""

    def __init__(self, body: bytes = b"", status: int = 200) -> None:
        self.body = body
        self.status = status
        self.batches: list[int] = []
        self.content_types: list[str] = []

    def __call__(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("content-length") or 0)
        decoded = ExportTraceServiceRequest.FromString(request.rfile.read(length))
        self.batches.append(sum(len(scope.spans) for rs in decoded.resource_spans for scope in rs.scope_spans))
        self.content_types.append(request.headers.get("content-type", ""))
        answer(request, self.status, self.body, {"content-type": "application/x-protobuf"})


def test_spans_go_as_otlp_protobuf_in_batches_of_at_most_512() -> None:
    stub = OtlpStub()
    with plain_server(stub) as origin:
        svc = Svc(api_key="svc_tracing_k", service_name="batches", capture_content=False, base_url=origin)
        for i in range(1_200):
            with svc.span(f"s{i}"):
                pass
        assert svc.force_flush()
        svc.shutdown_safe()
    assert sum(stub.batches) == 1_200
    assert max(stub.batches) <= 512
    assert stub.batches.count(512) >= 2
    assert set(stub.content_types) == {"application/x-protobuf"}


def test_a_partial_success_counts_as_rejected_and_an_unreadable_answer_as_invalid() -> None:
    partial = ExportTraceServiceResponse()
    partial.partial_success.rejected_spans = 1
    partial.partial_success.error_message = "one span had no name (the service's words: never shown)"
    for body, expected in [
        (partial.SerializeToString(), ("rejected", 1, "the service rejected 1 of 3 spans")),
        (
            b"\xff\xff\xff not protobuf",
            ("invalid", 3, "3 spans of unknown fate: the service's acknowledgement is not an OTLP export response"),
        ),
    ]:
        with plain_server(OtlpStub(body)) as origin:
            svc = Svc(api_key="svc_tracing_k", service_name="acks", capture_content=False, base_url=origin)
            for _ in range(3):
                with svc.span("s"):
                    pass
            assert not svc.force_flush()
            status = svc.export_status
            svc.shutdown_safe()
        issue = status.issues[-1]
        assert (issue.kind, issue.count, issue.message) == expected
        assert "never shown" not in json.dumps([i.message for i in status.issues])
        if expected[0] == "rejected":
            assert (status.accepted_spans, status.rejected_spans) == (2, 1)
        else:
            assert (status.accepted_spans, status.failed_spans) == (0, 3)


def test_the_reference_server_refusing_one_span_is_a_partial_success(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("named") as named:
        unnamed = svc.tracer.start_span("")  # the service refuses a span without a name
        unnamed.end()
    assert not svc.force_flush()
    status = svc.export_status
    assert (status.accepted_spans, status.rejected_spans, status.pending_spans) == (1, 1, 0)
    assert status.issues[-1].message == "the service rejected 1 of 2 spans"
    assert [span["name"] for span in server.list_spans(named.trace_id)] == ["named"]


def test_issues_are_delivered_to_the_callback_and_the_latest_128_kept(clients: Clients) -> None:
    delivered: list[ExportIssue] = []

    def on_issue(issue: ExportIssue) -> None:
        delivered.append(issue)
        if len(delivered) == 1:
            raise RuntimeError("a failing callback does not disturb exporting")

    svc = clients(on_export_issue=on_issue)
    for _ in range(130):
        svc.log_inference(input=[])
    status = svc.export_status
    assert len(delivered) == 130
    assert [issue.sequence for issue in delivered] == list(range(1, 131))
    assert len(status.issues) == 128
    assert (status.issues[0].sequence, status.issues[-1].sequence) == (3, 130)
    assert all(issue.kind == "warning" for issue in status.issues)
    assert svc.force_flush()  # warnings alone are no failure


def test_uploads_run_four_at_a_time() -> None:
    in_flight = 0
    most = 0
    arrivals = 0
    lock = threading.Lock()
    released = threading.Event()

    def handle(request: BaseHTTPRequestHandler) -> None:
        nonlocal in_flight, most, arrivals
        length = int(request.headers.get("content-length") or 0)
        body = request.rfile.read(length)
        if request.path == "/api/v1/otlp/v1/traces":
            answer(request, 200)
        elif request.path == "/api/v1/otlp/blobs":
            reserved = json.loads(body)
            url = f"http://{request.headers['host']}/put/{reserved['sha256']}"
            answer(request, 200, json.dumps({"status": "upload", "url": url, "method": "PUT", "headers": {}}).encode())
        elif request.path.startswith("/put/"):
            with lock:
                in_flight += 1
                arrivals += 1
                most = max(most, in_flight)
                first_four = arrivals <= 4
                if arrivals == 4:
                    # Four are held at once; a fifth, if the uploader started one, gets time to
                    # arrive before they are let go (a correct uploader passes whatever the delay).
                    threading.Timer(0.5, released.set).start()
            if first_four:
                assert released.wait(60)
            with lock:
                in_flight -= 1
            answer(request, 200)
        else:
            answer(request, 200, b'{"status":"stored"}')

    with plain_server(handle) as origin:
        svc = Svc(api_key="svc_tracing_k", service_name="uploads", capture_content=True, base_url=origin)
        with svc.span("files") as span:
            span.set_input([Attachment(data=os.urandom(100), content_type="image/png") for _ in range(10)])
        assert svc.force_flush(60_000)
        status = svc.export_status
        svc.shutdown_safe()
    assert (status.uploaded_values, status.upload_fallbacks) == (10, 0)
    assert arrivals == 10
    assert most == 4


def test_attached_files_count_in_the_128_mib_budget(clients: Clients, server: ReferenceServer) -> None:
    svc = clients(timeout_millis=60_000)
    files = [Attachment(data=os.urandom(25 * MIB), content_type="application/octet-stream") for _ in range(6)]
    with svc.span("six large files") as span:
        span.set_input(files)
    assert svc.force_flush(300_000)
    status = svc.export_status
    # 5 × 25 MiB fit in 128 MiB; the sixth was let go when it was attached and kept its digest.
    assert (status.uploaded_values, status.upload_fallbacks) == (5, 1)
    assert status.issues[-1].message == "1 file not uploaded: the 128 MiB memory budget for uploads was full"
    assert svc.transport._uploader.held_bytes == 0
    stored = json.loads(
        str(
            next(
                a["value"]["stringValue"]
                for a in server.list_spans(span.trace_id)[0]["attributes"]
                if a["key"] == "input.value"
            )
        )
    )
    assert [part["sha256"] for part in stored] == [file.sha256 for file in files]


def test_the_global_providers_and_context_are_left_alone(clients: Clients) -> None:
    tracer_provider = trace.get_tracer_provider()
    logger_provider = _logs.get_logger_provider()
    svc = clients()
    with svc.span("work"):
        svc.log_inference(output=[])
    assert svc.force_flush()
    assert trace.get_tracer_provider() is tracer_provider
    assert _logs.get_logger_provider() is logger_provider
    assert not trace.get_current_span().get_span_context().is_valid
