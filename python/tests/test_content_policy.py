"""The redactor (spec "Content policy rules" 3): it runs first, rewrites what uploads, and a failing
redactor rejects the record."""

from __future__ import annotations

import base64

from support.clients import Clients
from support.paths import MEDIA_FIXTURES
from support.reference_server import ReferenceServer
from support.stored import attributes


def test_redact_rewrites_strings_everywhere_with_their_paths(clients: Clients, server: ReferenceServer) -> None:
    paths: list[str] = []

    def redact(value: str, path: str) -> str:
        paths.append(path)
        return value.replace("jane@example.com", "[email]")

    svc = clients(redact=redact)
    with svc.span("ticket", attributes={"app.user": "jane@example.com", "app.count": 3}) as span:
        span.set_input({"from": "jane@example.com"})
        span.span.add_event("note", {"text": "mail jane@example.com"})
        svc.log_inference(input=[{"role": "user", "content": "I am jane@example.com"}])
    assert svc.force_flush()
    stored = server.list_spans(span.trace_id)[0]
    values = attributes(stored)
    assert values["app.user"] == "[email]"
    assert values["app.count"] == 3
    assert values["input.value"] == '{"from":"[email]"}'
    assert attributes(stored["events"][0]) == {"text": "mail [email]"}
    log = server.list_logs(span.trace_id)[0]
    assert "[email]" in str(attributes(log)["gen_ai.input.messages"])
    assert "attributes.app.user" in paths
    assert "events[0].text" in paths
    assert "resource.service.name" in paths


def test_a_redactor_that_raises_or_returns_no_string_rejects_the_record(
    clients: Clients, server: ReferenceServer
) -> None:
    def redact(value: str, path: str) -> str:
        if "boom" in value:
            raise RuntimeError(f"cannot redact {value}")
        if "none" in value:
            return None  # type: ignore[return-value]
        return value

    svc = clients(redact=redact)
    with svc.span("kept") as kept:
        pass
    with svc.span("raises", attributes={"app.note": "boom secret"}):
        pass
    with svc.span("returns none", attributes={"app.note": "none secret"}):
        pass
    assert not svc.force_flush()
    status = svc.export_status
    assert (status.accepted_spans, status.rejected_spans, status.pending_spans) == (1, 2, 0)
    rejected = [issue for issue in status.issues if issue.kind == "rejected"]
    assert [issue.message for issue in rejected] == [
        "1 span rejected: the redact callback raised for attributes.app.note",
        "1 span rejected: the redact callback returned a non-string for attributes.app.note",
    ]
    assert all("secret" not in issue.message for issue in status.issues)
    assert [span["name"] for span in server.list_spans(kept.trace_id)] == ["kept"]


def test_a_file_the_redactor_removes_does_not_upload(clients: Clients, server: ReferenceServer) -> None:
    image = (MEDIA_FIXTURES / "cat.png").read_bytes()
    messages = (
        '[{"role":"user","parts":[{"type":"blob","modality":"image","mime_type":"image/png","content":"'
        + base64.b64encode(image).decode()
        + '"}]}]'
    )

    def redact(value: str, path: str) -> str:
        return '[{"role":"user","parts":[]}]' if path == "attributes.gen_ai.input.messages" else value

    svc = clients(redact=redact)
    with svc.span("model") as span:
        span.span.set_attribute("gen_ai.input.messages", messages)
    assert svc.force_flush()
    values = attributes(server.list_spans(span.trace_id)[0])
    assert values["gen_ai.input.messages"] == '[{"role":"user","parts":[]}]'
    assert "svc.blobs" not in values
    assert svc.export_status.uploaded_values == 0
