"""``create_svc_safe``: disabled without a key, disabled (with one warning) by invalid options, and
never changing the application's results or errors."""

from __future__ import annotations

import asyncio
import logging

import pytest

from support.reference_server import ReferenceServer
from svc_run import ExportStatus, TraceVerification, create_svc_safe

KEY = "svc_tracing_supersecretvalue0123456789"


def test_enabled_false_needs_no_key_and_runs_the_application_exactly_once() -> None:
    svc = create_svc_safe(enabled=False)
    assert svc.enabled is False
    calls: list[str] = []
    with svc.span("work", input={"q": 1}) as span:
        calls.append("span")
        span.set_output("ignored")
        span.record_file(role="input", media_type="image/png", data=b"x")

    def tool() -> int:
        calls.append("tool")
        return 7

    assert svc.tool("t", {}, tool) == 7
    with svc.model(provider="openai", model="m") as call:
        call.set_response(output=[], usage={"input_tokens": 1})
        calls.append("model")

    async def run() -> int:
        async with svc.span("async work"):
            calls.append("async")
        return await svc.tool("t", {}, async_tool)

    async def async_tool() -> int:
        calls.append("async tool")
        return 8

    assert asyncio.run(run()) == 8
    svc.log_inference(input=[])
    assert calls == ["span", "tool", "model", "async", "async tool"]
    assert svc.validate_project() is None
    assert svc.verify_trace("1" * 32) == TraceVerification(False, None)
    assert svc.force_flush_safe() is True
    assert svc.shutdown_safe() is True
    assert svc.export_status == ExportStatus()
    assert svc.media is None

    @svc.span("decorated")
    def decorated(x: int) -> int:
        return x + 1

    assert decorated(1) == 2


def test_invalid_options_disable_telemetry_with_one_warning_that_never_shows_the_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="svc_run"):
        svc = create_svc_safe(api_key=KEY, service_name="", capture_content=True)
        masked = create_svc_safe(api_key=KEY, service_name="s", capture_content=True, base_url=f"https://{KEY}@x.test")
        missing = create_svc_safe(service_name="s", capture_content=True)
    assert (svc.enabled, masked.enabled, missing.enabled) == (False, False, False)
    messages = [record.getMessage() for record in caplog.records]
    assert messages == [
        "svc-run telemetry is disabled: service_name must be a string of 1 to 256 characters with "
        'non-whitespace content; got ""',
        "svc-run telemetry is disabled: base_url must not contain a username or password (pass the key as "
        'api_key); got "https://***@x.test"',
        "svc-run telemetry is disabled: api_key must be a non-empty string; got None",
    ]
    assert all(KEY not in message for message in messages)
    with svc.span("still runs") as handle:
        assert handle.trace_id == "0" * 32


def test_the_application_error_propagates_unchanged_through_every_helper(server: ReferenceServer) -> None:
    svc = create_svc_safe(
        api_key=server.keys.tracing, service_name="safe", capture_content=True, base_url=server.origin
    )
    error = LookupError("application")
    for run in (
        lambda: svc.tool("t", {}, lambda: (_ for _ in ()).throw(error)),
        lambda: _inside(svc.span("s"), error),
        lambda: _inside(svc.model(provider="p", model="m"), error),
    ):
        with pytest.raises(LookupError) as raised:
            run()
        assert raised.value is error
    assert svc.force_flush_safe(5_000) is True
    status = svc.export_status
    assert (status.accepted_spans, status.failed_spans) == (3, 0)
    svc.shutdown_safe()


def _inside(scope: object, error: Exception) -> None:
    with scope:  # type: ignore[attr-defined]
        raise error
