"""Media end to end: files found in recorded messages, attachments and recorded files upload to the
reference server and read back byte-identical; upload faults count as fallbacks; a setup key and
capture off upload nothing; ``media.fetch`` fails with every reason of MediaFetchError."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from support.clients import Clients
from support.message_fixtures import attribute_text, blob_key, fixture_sets, media_by_sha256
from support.paths import MEDIA_FIXTURES
from support.reference_server import ReferenceServer
from support.stored import attributes, strings
from svc_run import Attachment, MediaFetchError, Svc, create_media_reader, rehydrate_media
from svc_run.media.media_types import FileDecision, FoundFile

CAT = (MEDIA_FIXTURES / "cat.png").read_bytes()
DOT = (MEDIA_FIXTURES / "dot.png").read_bytes()
PDF = (MEDIA_FIXTURES / "report.pdf").read_bytes()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def blob_message(data: bytes, mime_type: str = "image/png") -> str:
    part = {"type": "blob", "modality": "image", "mime_type": mime_type, "content": base64.b64encode(data).decode()}
    return json.dumps([{"role": "user", "parts": [{"type": "text", "content": "look"}, part]}])


def blobs_of(server: ReferenceServer, trace_id: str, name: str | None = None) -> list[dict[str, Any]]:
    spans = server.list_spans(trace_id)
    span = spans[0] if name is None else next(s for s in spans if s["name"] == name)
    return [json.loads(entry) for entry in strings(attributes(span).get("svc.blobs", []))]


PROVIDER_FORMATS = [
    ("openai-chat", "openai-chat: user message with image_url data URL, input_audio and file_data"),
    ("anthropic-messages", "anthropic: image and document base64 sources, text document, image in a tool_result"),
    ("gemini", "gemini: inlineData image and PDF in a request"),
]


@pytest.mark.parametrize(("module", "name"), PROVIDER_FORMATS, ids=[module for module, _ in PROVIDER_FORMATS])
def test_provider_format_uploads_and_downloads_byte_identical(
    module: str, name: str, clients: Clients, server: ReferenceServer
) -> None:
    fixture = next(f for f in fixture_sets()[module] if f["name"] == name)
    svc = clients()
    with svc.span("model call") as span:
        span.span.set_attribute(fixture["attribute"], attribute_text(fixture))
    assert svc.force_flush()
    status = svc.export_status
    assert (status.uploaded_values, status.upload_fallbacks) == (len(fixture["files"]), 0)
    entries = blobs_of(server, span.trace_id)
    assert [(e["key"], e["sha256"], e["size"], e["content_type"]) for e in entries] == [
        (blob_key(fixture, f), f["sha256"], f["size"], f["mediaType"]) for f in fixture["files"]
    ]
    stored_value = str(attributes(server.list_spans(span.trace_id)[0])[fixture["attribute"]])
    assert "base64," not in stored_value
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    media = media_by_sha256()
    for file in fixture["files"]:
        downloaded = reader.fetch(trace_id=span.trace_id, sha256=file["sha256"], span_id=span.span_id)
        assert downloaded == media[file["sha256"]]
    # Reading back the recorded value puts every file back in its convention's form.
    resolved = reader.resolve(
        stored_value, trace_id=span.trace_id, blobs=attributes(server.list_spans(span.trace_id)[0])["svc.blobs"]
    )
    assert resolved.failures == []
    again: list[str] = []
    from svc_run.media.scan.scan_attribute import scan_attribute

    def keep(file: FoundFile) -> FileDecision:
        again.append(file.sha256)
        return "keep"

    scan_attribute(fixture["attribute"], str(resolved.value), keep)
    assert again == [f["sha256"] for f in fixture["files"]]
    assert svc.verify_trace(span.trace_id, [span.span_id], ["input"]).verified


@pytest.mark.parametrize(
    ("route", "fault"),
    [
        ("blobs.reserve", {"kind": "status", "status": 503, "retryAfterSeconds": 0}),
        ("blobs.upload", {"kind": "reset"}),
        ("blobs.complete", {"kind": "status", "status": 429, "retryAfterSeconds": 0}),
    ],
)
def test_two_faults_of_an_upload_step_are_retried(
    route: str, fault: dict[str, Any], clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    server.inject(route, fault, 2)
    image = os.urandom(3_000)
    with svc.span("upload") as span:
        span.span.set_attribute("gen_ai.input.messages", blob_message(image))
    assert svc.force_flush()
    assert (svc.export_status.uploaded_values, svc.export_status.upload_fallbacks) == (1, 0)
    assert server.pending_faults(route) == 0
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    assert reader.fetch(trace_id=span.trace_id, sha256=sha(image)) == image


@pytest.mark.parametrize("route", ["blobs.reserve", "blobs.upload", "blobs.complete"])
def test_three_faults_of_an_upload_step_fall_back_and_the_export_still_succeeds(
    route: str, clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    server.inject(route, {"kind": "status", "status": 503, "retryAfterSeconds": 0}, 3)
    image = os.urandom(2_000)
    with svc.span("upload") as span:
        span.span.set_attribute("gen_ai.input.messages", blob_message(image))
    # A file that cannot upload never fails the export: the flush reports no failure.
    assert svc.force_flush()
    status = svc.export_status
    assert (status.accepted_spans, status.uploaded_values, status.upload_fallbacks) == (1, 0, 1)
    step = {"blobs.reserve": "reservation", "blobs.upload": "upload", "blobs.complete": "completion"}[route]
    assert status.issues[-1].message == f"1 file not uploaded: the service refused the {step} (HTTP 503 unavailable)"
    assert status.issues[-1].kind == "warning"
    # The record keeps the digest and its entry.
    assert [entry["sha256"] for entry in blobs_of(server, span.trace_id)] == [sha(image)]
    if route != "blobs.complete":
        # Never stored: the file is listed but missing. (A failed completion comes after the PUT.)
        reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
        with pytest.raises(MediaFetchError) as raised:
            reader.fetch(trace_id=span.trace_id, sha256=sha(image))
        assert raised.value.reason == "missing"


def test_a_setup_key_and_capture_off_upload_nothing(clients: Clients, server: ReferenceServer) -> None:
    setup = clients(key=server.keys.setup)
    with setup.span("setup") as span:
        span.span.set_attribute("gen_ai.input.messages", blob_message(CAT))
        span.set_input({"file": Attachment(data=DOT, content_type="image/png")})
    assert setup.force_flush()
    status = setup.export_status
    assert (status.accepted_spans, status.uploaded_values, status.upload_fallbacks) == (1, 0, 2)
    assert [issue.message for issue in status.issues] == [
        "2 files not uploaded: the key is a setup credential (svc_setup_…), which uploads no files"
    ]
    stored = attributes(server.list_spans(span.trace_id)[0])
    # Refused in a message attribute: the digest stays, without an entry.
    assert sha(CAT) in str(stored["gen_ai.input.messages"])
    assert "svc.blobs" not in stored


def test_attachments_and_recorded_files_upload_with_the_span(
    clients: Clients, server: ReferenceServer, tmp_path: Path
) -> None:
    svc = clients()
    path = tmp_path / "report.pdf"
    path.write_bytes(PDF)
    with svc.span("summarize") as span:
        span.set_input({"document": Attachment(path=path, content_type="application/pdf", name="report.pdf")})
        span.record_file(role="output", media_type="image/png", data=CAT, name="chart.png", upload=True)
        span.record_file(role="input", media_type="image/png", data=DOT)
    assert svc.force_flush()
    status = svc.export_status
    assert (status.uploaded_values, status.upload_fallbacks) == (2, 0)
    stored = server.list_spans(span.trace_id)[0]
    assert json.loads(str(attributes(stored)["input.value"])) == {
        "document": {
            "type": "blob",
            "mime_type": "application/pdf",
            "modality": "document",
            "sha256": sha(PDF),
            "size": len(PDF),
            "name": "report.pdf",
        }
    }
    assert blobs_of(server, span.trace_id) == [
        {
            "key": "input.value#/document",
            "sha256": sha(PDF),
            "size": len(PDF),
            "content_type": "application/pdf",
            "name": "report.pdf",
        },
        {
            "key": f"event:svc.file:{sha(CAT)}",
            "sha256": sha(CAT),
            "size": len(CAT),
            "content_type": "image/png",
            "name": "chart.png",
        },
    ]
    events = [attributes(event) for event in stored["events"] if event["name"] == "svc.file"]
    assert events == [
        {
            "svc.file.sha256": sha(CAT),
            "svc.file.size": len(CAT),
            "svc.file.media_type": "image/png",
            "svc.file.role": "output",
            "svc.file.name": "chart.png",
        },
        {
            "svc.file.sha256": sha(DOT),
            "svc.file.size": len(DOT),
            "svc.file.media_type": "image/png",
            "svc.file.role": "input",
        },
    ]
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    assert reader.fetch(trace_id=span.trace_id, sha256=sha(PDF)) == PDF
    assert reader.fetch(trace_id=span.trace_id, sha256=sha(CAT)) == CAT


def test_invalid_attachments_are_recorded_as_null_and_counted(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("bad files") as span:
        span.set_input(
            {
                "both": Attachment(data=DOT, path="/etc/hostname", content_type="image/png"),
                "no_type": Attachment(data=DOT),
                "bad_type": Attachment(data=DOT, content_type="not a type"),
                "not_base64": Attachment(data="%%%", content_type="image/png"),
                "bad_name": Attachment(data=DOT, content_type="image/png", name=" "),
            }
        )
        span.record_file(role="sideways", media_type="image/png", data=DOT)  # type: ignore[arg-type]
    assert svc.force_flush()
    recorded = json.loads(str(attributes(server.list_spans(span.trace_id)[0])["input.value"]))
    assert [recorded[key] for key in ("both", "no_type", "bad_type", "not_base64")] == [None] * 4
    assert recorded["bad_name"]["sha256"] == sha(DOT)
    assert "name" not in recorded["bad_name"]
    messages = [issue.message for issue in svc.export_status.issues]
    assert messages == [
        "an attachment in input.value was recorded as null: attachment needs exactly one of data or path",
        "an attachment in input.value was recorded as null: the attachment has no content type",
        "an attachment in input.value was recorded as null: the attachment content type is not a valid media type",
        "an attachment in input.value was recorded as null: the attachment data is not bytes, base64 or a data: URL",
        "an attachment name was omitted: it must be 1 to 256 characters, nonblank, without control characters "
        "(in input.value)",
        "record_file recorded nothing: record_file role must be input, attachment or output",
    ]
    assert svc.export_status.uploaded_values == 1


def test_media_fetch_fails_with_every_reason(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    image, never = os.urandom(5_000), os.urandom(500)
    with svc.span("files") as span:
        span.span.set_attribute("gen_ai.input.messages", blob_message(image))
    assert svc.force_flush()
    server.inject("blobs.reserve", {"kind": "status", "status": 503, "retryAfterSeconds": 0}, 3)
    with svc.span("refused") as refused:
        refused.span.set_attribute("gen_ai.input.messages", blob_message(never))
    assert svc.force_flush()
    assert svc.export_status.upload_fallbacks == 1
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    trace_id = span.trace_id

    def reason(call: Any) -> tuple[str, int | None]:
        with pytest.raises(MediaFetchError) as raised:
            call()
        error = raised.value
        shown = f"{error} {error!r}"
        assert server.keys.read not in shown
        assert server.keys.tracing not in shown
        assert "sig=" not in shown
        return error.reason, error.status

    assert reader.fetch(trace_id=trace_id, sha256=sha(image)) == image
    tracing_reader = create_media_reader(api_key=server.keys.tracing, base_url=server.origin)
    assert reason(lambda: tracing_reader.fetch(trace_id=trace_id, sha256=sha(image))) == ("forbidden", 403)
    assert reason(lambda: reader.fetch(trace_id=trace_id, sha256=sha(b"nothing"))) == ("not_found", 404)
    assert reason(lambda: reader.fetch(trace_id=refused.trace_id, sha256=sha(never))) == ("missing", 404)
    assert reason(lambda: reader.fetch(trace_id=trace_id, sha256=sha(image), max_bytes=100))[0] == "too_large"
    server.inject("traces.blob", {"kind": "status", "status": 503})
    assert reason(lambda: reader.fetch(trace_id=trace_id, sha256=sha(image))) == ("unavailable", 503)
    server.inject("blobs.download", {"kind": "reset"})
    assert reason(lambda: reader.fetch(trace_id=trace_id, sha256=sha(image))) == ("failed", None)
    stored = _stored_path(server, sha(image))
    original = stored.read_bytes()
    stored.write_bytes(original[:-1] + bytes([original[-1] ^ 0xFF]))
    try:
        assert reason(lambda: reader.fetch(trace_id=trace_id, sha256=sha(image))) == ("digest_mismatch", 200)
    finally:
        stored.write_bytes(original)
    wrong_origin = create_media_reader(api_key=server.keys.read, base_url="http://127.0.0.1:9")
    assert reason(lambda: wrong_origin.fetch(trace_id=trace_id, sha256=sha(image)))[0] == "failed"
    with pytest.raises(TypeError, match=r"^sha256 must be 64 lowercase hex characters"):
        reader.fetch(trace_id=trace_id, sha256="ABC")
    with pytest.raises(ValueError, match=r"^trace_id or snapshot_id is required"):
        reader.fetch(sha256=sha(image))


def _stored_path(server: ReferenceServer, digest: str) -> Path:
    matches = [path for path in (Path(server.data_dir) / "blobs").rglob(digest) if path.is_file()]
    assert len(matches) == 1
    return matches[0]


def test_resolve_and_rehydrate_put_files_back_in_their_convention_form(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    message = json.dumps(
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image_url",
                        "image_url": {"url": "data:image/png;base64," + base64.b64encode(CAT).decode()},
                    }
                ],
            }
        ]
    )
    with svc.span("vision") as span:
        span.span.set_attribute("gen_ai.input.messages", message)
    assert svc.force_flush()
    stored = attributes(server.list_spans(span.trace_id)[0])
    recorded = str(stored["gen_ai.input.messages"])
    reader = create_media_reader(api_key=server.keys.read, base_url=server.origin)
    resolved = reader.resolve(recorded, trace_id=span.trace_id, blobs=stored["svc.blobs"])
    assert json.loads(str(resolved.value)) == json.loads(message)
    as_bytes = reader.resolve(recorded, trace_id=span.trace_id, blobs=stored["svc.blobs"], as_bytes=True)
    assert as_bytes.value[0]["content"][0] == CAT  # type: ignore[index]
    not_listed = reader.resolve(recorded, trace_id=span.trace_id, blobs=[])
    assert [(f.pointer, f.reason) for f in not_listed.failures] == [("/0/content/0", "not_listed")]
    assert rehydrate_media(json.loads(recorded), [{"bytes": CAT, "content_type": "image/png"}]) == json.loads(message)
    with pytest.raises(ValueError, match=r"^files\[0\].sha256 is not the SHA-256 of its bytes"):
        rehydrate_media(recorded, [{"bytes": CAT, "content_type": "image/png", "sha256": sha(DOT)}])


def test_a_read_key_client_reads_with_svc_media(server: ReferenceServer) -> None:
    svc = Svc(api_key=server.keys.read, service_name="reader", capture_content=True, base_url=server.origin)
    with pytest.raises(MediaFetchError) as raised:
        svc.media.fetch(trace_id="1" * 32, sha256="2" * 64)
    assert raised.value.reason == "not_found"
