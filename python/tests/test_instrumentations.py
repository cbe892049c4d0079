"""Beside real instrumentations: OpenInference's and OpenLLMetry's OpenAI instrumentations, with the
OpenAI Python client pointed at a local fake over an HTTP mock transport (no provider is reachable
here). Their spans are exported through the service's processors on the application's provider,
the image in the request becomes a digest part and uploads, and the trace verifies."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider

from support.paths import MEDIA_FIXTURES
from support.reference_server import ReferenceServer
from support.stored import attributes, strings
from svc_run import Svc, create_media_reader, create_svc_transport

CAT = (MEDIA_FIXTURES / "cat.png").read_bytes()
CAT_SHA256 = hashlib.sha256(CAT).hexdigest()
CAT_URL = "data:image/png;base64," + base64.b64encode(CAT).decode()


def fake_provider(request: httpx2.Request) -> httpx2.Response:
    """The chat completions route of a provider, answering every request the same."""
    assert request.url.path == "/v1/chat/completions"
    body = json.loads(request.content)
    assert body["messages"][0]["content"][1]["image_url"]["url"] == CAT_URL
    return httpx2.Response(
        200,
        json={
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "A cat."}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
        },
    )


@pytest.fixture
def application(server: ReferenceServer) -> Iterator[tuple[Svc, TracerProvider]]:
    """The application's providers with the service's processors, and a client on them."""
    transport = create_svc_transport(
        api_key=server.keys.tracing, service_name="vision-app", capture_content=True, base_url=server.origin
    )
    tracer_provider = TracerProvider(resource=Resource({"service.name": "vision-app"}), shutdown_on_exit=False)
    tracer_provider.add_span_processor(transport.span_processor)
    logger_provider = LoggerProvider(resource=Resource({"service.name": "vision-app"}), shutdown_on_exit=False)
    logger_provider.add_log_record_processor(transport.log_record_processor)
    svc = Svc(transport=transport, tracer_provider=tracer_provider, logger_provider=logger_provider)
    try:
        yield svc, tracer_provider
    finally:
        svc.shutdown_safe(2_000)
        tracer_provider.shutdown()
        logger_provider.shutdown()


def ask_about_the_image(svc: Svc) -> tuple[str, str]:
    client = openai.OpenAI(
        api_key="sk-test-not-a-key",
        base_url="http://provider.test/v1",
        http_client=httpx2.Client(transport=httpx2.MockTransport(fake_provider)),
    )
    with svc.span("describe image", session_id="sess-vision") as agent:
        reply = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is this?"},
                        {"type": "image_url", "image_url": {"url": CAT_URL}},
                    ],
                }
            ],
        )
    assert reply.choices[0].message.content == "A cat."
    return agent.trace_id, agent.span_id


def check_trace(svc: Svc, server: ReferenceServer, trace_id: str, agent_span_id: str) -> dict[str, Any]:
    assert svc.force_flush()
    spans = server.list_spans(trace_id)
    llm = next(span for span in spans if span["spanId"] != agent_span_id)
    assert llm["parentSpanId"] == agent_span_id
    stored = attributes(llm)
    assert CAT_URL[40:400] not in json.dumps(stored)
    entries = [json.loads(entry) for entry in strings(stored["svc.blobs"])]
    assert {entry["sha256"] for entry in entries} == {CAT_SHA256}
    assert svc.export_status.uploaded_values == 1
    assert svc.export_status.upload_fallbacks == 0
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    assert reader.fetch(trace_id=trace_id, sha256=CAT_SHA256, span_id=llm["spanId"]) == CAT
    verification = svc.verify_trace(trace_id, [agent_span_id, llm["spanId"]], ["input", "output", "model"])
    assert verification.verified, verification.receipt
    return stored


def test_openinference_openai_spans_are_exported_scanned_and_verified(
    application: tuple[Svc, TracerProvider], server: ReferenceServer
) -> None:
    from openinference.instrumentation.openai import OpenAIInstrumentor

    svc, tracer_provider = application
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider)
    try:
        trace_id, agent_span_id = ask_about_the_image(svc)
    finally:
        instrumentor.uninstrument()
    stored = check_trace(svc, server, trace_id, agent_span_id)
    assert stored["openinference.span.kind"] == "LLM"
    url_attribute = "llm.input_messages.0.message.contents.1.message_content.image.image.url"
    assert json.loads(str(stored[url_attribute])) == {
        "type": "blob",
        "mime_type": "image/png",
        "modality": "image",
        "sha256": CAT_SHA256,
        "size": len(CAT),
    }
    input_value = json.loads(str(stored["input.value"]))
    assert input_value["messages"][0]["content"][1]["image_url"] == {"sha256": CAT_SHA256, "size": len(CAT)}
    keys = sorted(json.loads(entry)["key"] for entry in strings(stored["svc.blobs"]))
    assert keys == ["input.value#/messages/0/content/1", f"{url_attribute}#"]


def test_openllmetry_openai_spans_are_exported_scanned_and_verified(
    application: tuple[Svc, TracerProvider], server: ReferenceServer
) -> None:
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor

    svc, tracer_provider = application
    # Without a callback of its own, OpenLLMetry records the image as a GenAI blob part.
    instrumentor = OpenAIInstrumentor(upload_base64_image=None)
    instrumentor.instrument(tracer_provider=tracer_provider)
    try:
        trace_id, agent_span_id = ask_about_the_image(svc)
    finally:
        instrumentor.uninstrument()
    stored = check_trace(svc, server, trace_id, agent_span_id)
    messages = json.loads(str(stored["gen_ai.input.messages"]))
    assert messages[0]["parts"][1] == {
        "type": "blob",
        "modality": "image",
        "mime_type": "image/png",
        "sha256": CAT_SHA256,
        "size": len(CAT),
    }
    assert [json.loads(entry)["key"] for entry in strings(stored["svc.blobs"])] == ["gen_ai.input.messages#/0/parts/1"]
