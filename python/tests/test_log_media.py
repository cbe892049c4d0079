"""Files in log records (spec "Media files", step 2): any ``gen_ai.*`` event with a structured body
is read for files, listed in the log's own ``svc.blobs`` as ``body#<JSON pointer>`` and uploaded;
a log record that cannot upload (not correlated with a span) keeps media up to 64 KiB as recorded
and turns larger media into its digest."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from google.protobuf.json_format import MessageToDict
from opentelemetry.context import Context
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk.trace import TracerProvider

from support.plain_server import answer, plain_server
from support.reference_server import ReferenceServer
from support.stored import any_value, attributes, strings
from svc_run import Svc, create_media_reader, create_svc_transport

KIB = 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(size: int) -> bytes:
    return PNG_SIGNATURE + os.urandom(size - len(PNG_SIGNATURE))


def data_url(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def user_message(*images: bytes) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": "what is in these?"}]
    content += [{"type": "image_url", "image_url": {"url": data_url(image)}} for image in images]
    return {"role": "user", "content": content}


@contextmanager
def app_client(base_url: str, api_key: str) -> Iterator[tuple[Svc, LoggerProvider]]:
    """A client in the existing-provider form, with the application's logger provider."""
    transport = create_svc_transport(api_key=api_key, service_name="logs", capture_content=True, base_url=base_url)
    tracer_provider = TracerProvider(shutdown_on_exit=False)
    tracer_provider.add_span_processor(transport.span_processor)
    logger_provider = LoggerProvider(shutdown_on_exit=False)
    logger_provider.add_log_record_processor(transport.log_record_processor)
    svc = Svc(transport=transport, tracer_provider=tracer_provider, logger_provider=logger_provider)
    try:
        yield svc, logger_provider
    finally:
        svc.shutdown_safe(2_000)
        tracer_provider.shutdown()
        logger_provider.shutdown()


def test_a_correlated_gen_ai_event_uploads_the_files_of_its_structured_body(server: ReferenceServer) -> None:
    image = png(3 * KIB)
    with app_client(server.origin, server.keys.tracing) as (svc, logger_provider):
        with svc.span("turn") as turn:
            logger_provider.get_logger("app").emit(event_name="gen_ai.user.message", body=user_message(image))
        assert svc.force_flush()
        status = svc.export_status
    assert (status.uploaded_values, status.upload_fallbacks) == (1, 0)
    logs = server.list_logs(turn.trace_id)
    assert len(logs) == 1
    body = any_value(logs[0]["body"])
    sha256 = hashlib.sha256(image).hexdigest()
    digest: dict[str, object] = {"sha256": sha256, "size": len(image)}
    assert body == {
        "role": "user",
        "content": [{"type": "text", "text": "what is in these?"}, {"type": "image_url", "image_url": digest}],
    }
    entries = [json.loads(entry) for entry in strings(attributes(logs[0])["svc.blobs"])]
    assert entries == [{"key": "body#/content/1", "content_type": "image/png", **digest}]
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    assert reader.fetch(trace_id=turn.trace_id, sha256=sha256) == image


def test_an_uncorrelated_gen_ai_event_keeps_small_media_and_turns_larger_media_into_its_digest() -> None:
    bodies: list[object] = []
    log_attributes: list[dict[str, object]] = []

    def handle(request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("content-length") or 0)
        body = request.rfile.read(length)
        if request.path == "/api/v1/otlp/v1/logs":
            decoded = MessageToDict(ExportLogsServiceRequest.FromString(body))
            for resource_logs in decoded["resourceLogs"]:
                for scope_logs in resource_logs["scopeLogs"]:
                    for record in scope_logs["logRecords"]:
                        bodies.append(any_value(record["body"]))
                        log_attributes.append(attributes(record))
            answer(request, 200)
        else:  # no file may be offered for upload
            answer(request, 500)

    small, large = png(64 * KIB), png(64 * KIB + 1)
    with plain_server(handle) as origin, app_client(origin, "svc_tracing_k") as (svc, logger_provider):
        logger_provider.get_logger("app").emit(
            event_name="gen_ai.user.message", body=user_message(small, large), context=Context()
        )
        assert svc.force_flush()
        status = svc.export_status
    assert (status.accepted_logs, status.uploaded_values, status.upload_fallbacks) == (1, 0, 0)
    assert bodies == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "what is in these?"},
                {"type": "image_url", "image_url": {"url": data_url(small)}},
                {"type": "image_url", "image_url": {"sha256": hashlib.sha256(large).hexdigest(), "size": len(large)}},
            ],
        }
    ]
    assert "svc.blobs" not in log_attributes[0]
