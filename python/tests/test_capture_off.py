"""Capture off strips the recognized content attributes of every convention before export.

The convention fixtures are the TypeScript SDK's (``packages/sdk/src/content/__fixtures__``): span
attributes as each convention's instrumentation records them, and the names that are content.
Spans are recorded through the client's tracer and read back from the reference server.
"""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.trace import Status, StatusCode

from support.clients import Clients
from support.conventions import convention_fixtures
from support.reference_server import ReferenceServer
from support.stored import attributes
from svc_run import Attachment

FIXTURES = convention_fixtures()


def test_every_convention_of_the_table_has_a_fixture() -> None:
    conventions = {fixture["convention"] for fixture in FIXTURES}
    assert conventions == {
        "GenAI semantic conventions",
        "Vercel AI SDK",
        "OpenInference",
        "OpenLLMetry",
        "Pydantic AI",
        "Langfuse",
    }


def _tuple_values(values: dict[str, Any]) -> dict[str, Any]:
    return {key: tuple(value) if isinstance(value, list) else value for key, value in values.items()}


@pytest.mark.parametrize("fixture", FIXTURES, ids=[fixture["convention"] for fixture in FIXTURES])
def test_capture_off_strips_the_content_attributes_of(
    fixture: dict[str, Any], clients: Clients, server: ReferenceServer
) -> None:
    svc = clients(capture_content=False)
    span = svc.tracer.start_span(fixture["spanName"], attributes=fixture["attributes"])
    span.set_status(Status(StatusCode.ERROR, "customer jane@example.com failed"))
    span.end()
    assert svc.force_flush()
    trace_id = format(span.get_span_context().trace_id, "032x")
    stored = server.list_spans(trace_id)[0]
    expected = {key: value for key, value in fixture["attributes"].items() if key not in fixture["contentAttributes"]}
    assert _tuple_values(attributes(stored)) == _tuple_values(expected)
    assert stored["statusMessage"] == ""
    assert stored["statusCode"] == 2
    # Nothing of the stripped content uploads (the fixtures embed small images).
    assert svc.export_status.uploaded_values == 0


@pytest.mark.parametrize("fixture", FIXTURES, ids=[fixture["convention"] for fixture in FIXTURES])
def test_capture_on_keeps_them(fixture: dict[str, Any], clients: Clients, server: ReferenceServer) -> None:
    svc = clients(capture_content=True)
    span = svc.tracer.start_span(fixture["spanName"], attributes=fixture["attributes"])
    span.end()
    assert svc.force_flush()
    stored = attributes(server.list_spans(format(span.get_span_context().trace_id, "032x"))[0])
    for name in fixture["contentAttributes"]:
        assert name in stored


def test_capture_off_records_no_helper_content_no_log_and_no_exception_text(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients(capture_content=False)
    image = Attachment(data=b"\x89PNG\r\n\x1a\n" + bytes(100), content_type="image/png")
    handles = []

    def work() -> None:
        with svc.span("work", input={"question": "secret", "image": image}) as span:
            handles.append(span)
            span.set_output("secret answer")
            span.record_file(role="input", media_type="image/png", data=b"\x89PNG\r\n\x1a\n" + bytes(10), upload=True)
            svc.log_inference(input=[{"role": "user"}])
            raise RuntimeError("secret failure")

    with pytest.raises(RuntimeError, match=r"^secret failure$"):
        work()
    span = handles[0]
    assert svc.force_flush()
    stored = server.list_spans(span.trace_id)[0]
    values = attributes(stored)
    assert "input.value" not in values
    assert "output.value" not in values
    assert values["error.type"] == "RuntimeError"
    assert "svc.blobs" not in values
    # The recorded file's event (digest, role, type) is not content; its bytes do not upload.
    assert [event["name"] for event in stored["events"]] == ["svc.file", "exception"]
    assert server.list_logs(span.trace_id) == []
    status = svc.export_status
    assert (status.accepted_logs, status.uploaded_values, status.upload_fallbacks) == (0, 0, 0)
