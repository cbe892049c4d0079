"""Uploads (spec "Upload routes", "Limits": attempts and the Python deadline).

Against a stand-in of the upload routes for what the reference server does not answer (``exists``
without a prior upload, 412 on the PUT) and to see exactly what is sent; against the reference
server for retries, deadlines and files that change after they were recorded.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from support.clients import Clients
from support.plain_server import answer, plain_server
from support.reference_server import ReferenceServer
from svc_run import Attachment, Svc
from svc_run.media.upload.uploader import put_deadline_seconds

MIB = 1024 * 1024


def test_the_python_put_deadline_is_six_timeouts_or_one_second_per_mib_whichever_is_longer() -> None:
    assert put_deadline_seconds(10_000, 0) == 60
    assert put_deadline_seconds(10_000, 60 * MIB) == 60
    assert put_deadline_seconds(10_000, 61 * MIB) == 61
    assert put_deadline_seconds(100, 1_000_000_000) == pytest.approx(1_000_000_000 / MIB)
    assert put_deadline_seconds(60_000, 100 * MIB) == 360


class UploadStub:
    """The service's ingest and upload routes, answering as told, recording every request."""

    def __init__(self, reservation: str = "upload", put_status: int = 200) -> None:
        self.reservation = reservation
        self.put_status = put_status
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.origin = ""

    def __call__(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("content-length") or 0)
        body = request.rfile.read(length) if length else b""
        with self.lock:
            self.requests.append(
                {
                    "method": request.command,
                    "path": request.path,
                    "headers": {k.lower(): v for k, v in request.headers.items()},
                    "body": body,
                }
            )
        if request.path.startswith("/api/v1/otlp/v1/"):
            answer(request, 200, b"", {"content-type": "application/x-protobuf"})
        elif request.path == "/api/v1/otlp/blobs":
            reserved = json.loads(body)
            ref = {key: reserved[key] for key in ("key", "sha256")}
            if self.reservation == "exists":
                reply: dict[str, Any] = {"status": "exists", "ref": ref}
            else:
                reply = {
                    "status": "upload",
                    "url": f"{self.origin}/put/{reserved['sha256']}?sig=abc",
                    "method": "PUT",
                    "headers": {
                        "content-type": "application/octet-stream",
                        "content-length": str(reserved["byteSize"]),
                    },
                    "expiresAt": "2099-01-01T00:00:00Z",
                    "ref": ref,
                }
            answer(request, 200, json.dumps(reply).encode(), {"content-type": "application/json"})
        elif request.path.startswith("/put/"):
            answer(request, self.put_status, b"")
        elif request.path == "/api/v1/otlp/blobs/complete":
            answer(request, 200, b'{"status":"stored"}', {"content-type": "application/json"})
        else:
            answer(request, 404)

    def of(self, method: str, path: str) -> list[dict[str, Any]]:
        """Requests of ``method`` to ``path`` (or below it, when it ends with ``/``)."""
        return [
            r
            for r in self.requests
            if r["method"] == method and (r["path"] == path or (path.endswith("/") and r["path"].startswith(path)))
        ]


def run_with_stub(stub: UploadStub, record: Any) -> tuple[Svc, Any]:
    with plain_server(stub) as origin:
        stub.origin = origin
        svc = Svc(api_key="svc_tracing_stub_key", service_name="stub", capture_content=True, base_url=origin)
        result = record(svc)
        assert svc.force_flush(10_000)
        svc.shutdown_safe()
    return svc, result


def test_reserve_put_complete_sends_exactly_what_the_contract_says() -> None:
    stub = UploadStub()
    data = os.urandom(5_000)

    def record(svc: Svc) -> str:
        with svc.span("file") as span:
            span.set_input(Attachment(data=data, content_type="image/png"))
        return span.trace_id

    svc, trace_id = run_with_stub(stub, record)
    digest = hashlib.sha256(data).hexdigest()
    (reserve,) = stub.of("POST", "/api/v1/otlp/blobs")
    assert reserve["headers"]["authorization"] == "Bearer svc_tracing_stub_key"
    assert json.loads(reserve["body"]) == {
        "traceId": trace_id,
        "sha256": digest,
        "byteSize": 5_000,
        "contentType": "image/png",
        "key": "input.value#",
    }
    (put,) = stub.of("PUT", "/put/")
    assert "authorization" not in put["headers"]
    assert put["headers"]["content-type"] == "application/octet-stream"
    assert put["headers"]["content-length"] == "5000"
    assert put["body"] == data
    (complete,) = stub.of("POST", "/api/v1/otlp/blobs/complete")
    assert json.loads(complete["body"]) == {"traceId": trace_id, "sha256": digest}
    assert (svc.export_status.uploaded_values, svc.export_status.upload_fallbacks) == (1, 0)


def test_exists_sends_no_bytes_and_counts_the_file_as_stored() -> None:
    stub = UploadStub(reservation="exists")
    svc, _ = run_with_stub(stub, lambda svc: _one_file(svc, os.urandom(100)))
    assert stub.of("PUT", "/put/") == []
    assert stub.of("POST", "/api/v1/otlp/blobs/complete") == []
    assert svc.export_status.uploaded_values == 1


def test_a_412_on_the_put_means_already_stored_without_completing() -> None:
    stub = UploadStub(put_status=412)
    svc, _ = run_with_stub(stub, lambda svc: _one_file(svc, os.urandom(100)))
    assert len(stub.of("PUT", "/put/")) == 1
    assert stub.of("POST", "/api/v1/otlp/blobs/complete") == []
    assert (svc.export_status.uploaded_values, svc.export_status.upload_fallbacks) == (1, 0)


def test_the_same_bytes_in_the_same_trace_upload_once() -> None:
    stub = UploadStub()
    data = os.urandom(1_000)

    def record(svc: Svc) -> None:
        with svc.span("root"):
            for _ in range(3):
                with svc.span("child") as child:
                    child.set_input([Attachment(data=data, content_type="image/png")])
            svc.force_flush()
            with svc.span("later") as later:
                later.set_output(Attachment(data=data, content_type="image/png"))

    svc, _ = run_with_stub(stub, record)
    assert len(stub.of("POST", "/api/v1/otlp/blobs")) == 1
    assert len(stub.of("PUT", "/put/")) == 1
    assert svc.export_status.uploaded_values == 1


def _one_file(svc: Svc, data: bytes) -> None:
    with svc.span("file") as span:
        span.set_input(Attachment(data=data, content_type="image/png"))


def test_a_put_slower_than_its_deadline_is_tried_three_times_then_falls_back(
    clients: Clients, server: ReferenceServer
) -> None:
    # timeout_millis 100: each PUT attempt may last 0.6 s (six timeouts; the file is small).
    svc = clients(timeout_millis=100)
    server.inject("blobs.upload", {"kind": "hang", "millis": 3_000}, 3)
    _one_file(svc, os.urandom(1_000))
    assert svc.force_flush(30_000)
    status = svc.export_status
    assert (status.uploaded_values, status.upload_fallbacks) == (0, 1)
    assert status.issues[-1].message == "1 file not uploaded: the service did not answer the upload after 3 attempts"
    assert server.pending_faults("blobs.upload") == 0


def test_a_path_file_changed_after_it_was_recorded_falls_back(
    clients: Clients, server: ReferenceServer, tmp_path: Path
) -> None:
    path = tmp_path / "big.bin"
    with path.open("wb") as handle:
        handle.truncate(26 * MIB)  # over 25 MiB: hashed now, streamed from disk at upload
    svc = clients()
    with svc.span("file") as span:
        span.record_file(role="input", media_type="application/octet-stream", path=path, upload=True)
        with path.open("ab") as handle:
            handle.write(b"!")
    assert svc.force_flush()
    status = svc.export_status
    assert (status.uploaded_values, status.upload_fallbacks) == (0, 1)
    assert status.issues[-1].message == "1 file not uploaded: the file changed after it was recorded"
    assert span.trace_id
