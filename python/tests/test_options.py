"""Client options (spec "Client options"): every rule, its message, and what is never shown or read."""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.clients import Clients
from support.reference_server import ReferenceServer
from support.stored import attributes
from svc_run import DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MILLIS, InvalidOptionError, Svc, create_svc_transport
from svc_run.options.validate_options import validate_options

KEY = "svc_test_0123456789abcdef"
MINIMAL: dict[str, Any] = {"api_key": KEY, "service_name": "checkout", "capture_content": False}

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("api_key missing", {"api_key": None}, "api_key must be a non-empty string; got None"),
    ("api_key empty", {"api_key": ""}, "api_key must be a non-empty string; got an empty string"),
    ("api_key a number", {"api_key": 12345}, "api_key must be a non-empty string; got an int"),
    ("api_key bytes", {"api_key": KEY.encode()}, "api_key must be a non-empty string; got a bytes"),
    ("api_key a dict", {"api_key": {"key": KEY}}, "api_key must be a non-empty string; got a dict"),
    (
        "service_name missing",
        {"service_name": None},
        "service_name must be a string of 1 to 256 characters with non-whitespace content; got None",
    ),
    (
        "service_name blank",
        {"service_name": " \t\n"},
        'service_name must be a string of 1 to 256 characters with non-whitespace content; got " \\t\\n"',
    ),
    (
        "service_name too long",
        {"service_name": "a" * 257},
        "service_name must be a string of 1 to 256 characters with non-whitespace content; "
        f'got "{"a" * 60}"… (257 characters)',
    ),
    (
        "capture_content missing",
        {"capture_content": None},
        "capture_content must be set explicitly to True or False; got None",
    ),
    (
        "capture_content a string",
        {"capture_content": "true"},
        'capture_content must be set explicitly to True or False; got "true"',
    ),
    ("capture_content 1", {"capture_content": 1}, "capture_content must be set explicitly to True or False; got 1"),
    ("base_url a number", {"base_url": 42}, "base_url must be a URL string (e.g. https://api.svc.run); got 42"),
    ("base_url empty", {"base_url": ""}, 'base_url must be an absolute URL (e.g. https://api.svc.run); got ""'),
    (
        "base_url without scheme",
        {"base_url": "api.svc.run"},
        'base_url must be an absolute URL (e.g. https://api.svc.run); got "api.svc.run"',
    ),
    (
        "base_url with a path",
        {"base_url": "https://x.test/api"},
        "base_url must be an origin without a path, query or fragment (e.g. https://api.svc.run); "
        'got "https://x.test/api"',
    ),
    (
        "base_url with an empty query",
        {"base_url": "https://x.test?"},
        "base_url must be an origin without a path, query or fragment (e.g. https://api.svc.run); "
        'got "https://x.test?"',
    ),
    (
        "base_url with a fragment",
        {"base_url": "https://x.test#top"},
        "base_url must be an origin without a path, query or fragment (e.g. https://api.svc.run); "
        'got "https://x.test#top"',
    ),
    (
        "base_url http on a public host",
        {"base_url": "http://example.com"},
        'base_url must use https (http is allowed only for loopback hosts); got "http://example.com"',
    ),
    (
        "base_url http on a private address",
        {"base_url": "http://10.0.0.1"},
        'base_url must use https (http is allowed only for loopback hosts); got "http://10.0.0.1"',
    ),
    (
        "base_url http on a localhost subdomain",
        {"base_url": "http://localhost.example.com"},
        'base_url must use https (http is allowed only for loopback hosts); got "http://localhost.example.com"',
    ),
    (
        "base_url with credentials (masked)",
        {"base_url": "https://user:pw@host.test"},
        'base_url must not contain a username or password (pass the key as api_key); got "https://***@host.test"',
    ),
    (
        "base_url with a key as user name (masked)",
        {"base_url": f"http://{KEY}@localhost:4318"},
        'base_url must not contain a username or password (pass the key as api_key); got "http://***@localhost:4318"',
    ),
    ("service_version a number", {"service_version": 1}, "service_version must be a string when set; got 1"),
    (
        "timeout_millis too small",
        {"timeout_millis": 50},
        "timeout_millis must be an integer from 100 to 60000; got 50",
    ),
    (
        "timeout_millis too large",
        {"timeout_millis": 60_001},
        "timeout_millis must be an integer from 100 to 60000; got 60001",
    ),
    (
        "timeout_millis fractional",
        {"timeout_millis": 1000.5},
        "timeout_millis must be an integer from 100 to 60000; got 1000.5",
    ),
    (
        "timeout_millis NaN",
        {"timeout_millis": math.nan},
        "timeout_millis must be an integer from 100 to 60000; got nan",
    ),
    (
        "timeout_millis a string",
        {"timeout_millis": "5000"},
        'timeout_millis must be an integer from 100 to 60000; got "5000"',
    ),
    ("timeout_millis True", {"timeout_millis": True}, "timeout_millis must be an integer from 100 to 60000; got True"),
    (
        "redact a string",
        {"redact": "yes"},
        'redact must be a function (value, path) -> str when set; got "yes"',
    ),
    (
        "on_export_issue a list",
        {"on_export_issue": []},
        "on_export_issue must be a function (issue) -> None when set; got a list",
    ),
]


@pytest.mark.parametrize(("name", "override", "message"), CASES, ids=[case[0] for case in CASES])
def test_every_rule_names_the_option_the_value_and_the_rule(name: str, override: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError) as raised:
        Svc(**{**MINIMAL, **override})
    assert str(raised.value) == message
    # The spec's TypeError, and the ValueError Python code expects for a bad value.
    assert isinstance(raised.value, TypeError)
    assert isinstance(raised.value, ValueError)
    assert KEY not in str(raised.value)
    assert KEY not in repr(raised.value)


def test_options_are_checked_in_the_order_of_the_spec_table() -> None:
    with pytest.raises(InvalidOptionError, match=r"^api_key must be a non-empty string; got None$"):
        Svc(api_key=None, service_name="", capture_content=False, timeout_millis=1)  # type: ignore[call-overload]


def test_defaults_and_normalized_origins() -> None:
    resolved = validate_options(**MINIMAL)
    assert resolved.base_url == DEFAULT_BASE_URL == "https://api.svc.run"
    assert resolved.timeout_millis == DEFAULT_TIMEOUT_MILLIS == 10_000
    assert resolved.service_version is None
    for given_url, origin in [
        ("http://127.0.0.1:4318", "http://127.0.0.1:4318"),
        ("http://127.45.6.7", "http://127.45.6.7"),
        ("http://LOCALHOST:8080", "http://localhost:8080"),
        ("http://[::1]:9", "http://[::1]:9"),
        ("https://api.svc.run/", "https://api.svc.run"),
        ("https://API.svc.run:443", "https://api.svc.run"),
        ("https://10.0.0.1", "https://10.0.0.1"),
    ]:
        assert validate_options(**MINIMAL, base_url=given_url).base_url == origin
    assert validate_options(**MINIMAL, timeout_millis=100).timeout_millis == 100
    assert validate_options(**MINIMAL, timeout_millis=60_000).timeout_millis == 60_000
    # Characters are code points: 256 emoji are 256 characters.
    assert validate_options(**{**MINIMAL, "service_name": "🚀" * 256}).service_name == "🚀" * 256


def test_the_key_is_never_shown_by_the_client_or_the_transport() -> None:
    svc = Svc(**MINIMAL, base_url="http://127.0.0.1:9")
    transport = create_svc_transport(**MINIMAL, base_url="http://127.0.0.1:9")
    for shown in (repr(svc), str(svc), repr(transport), repr(transport.options), repr(svc.media)):
        assert KEY not in shown


def test_constructors_do_not_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVC_API_KEY", KEY)
    monkeypatch.setenv("SVC_BASE_URL", "https://env.svc.test")
    monkeypatch.setenv("OTEL_SERVICE_NAME", "from-environment")
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "service.name=from-environment,deployment=env")
    with pytest.raises(InvalidOptionError, match=r"^api_key must be a non-empty string; got None$"):
        Svc(service_name="checkout", capture_content=False)  # type: ignore[call-overload]
    svc = Svc(**MINIMAL, base_url="http://127.0.0.1:9")
    assert svc.transport.options.base_url == "http://127.0.0.1:9"
    resource = svc._tracer_provider.resource
    assert resource.attributes["service.name"] == "checkout"
    assert "deployment" not in resource.attributes
    assert os.environ["SVC_API_KEY"] == KEY


def test_the_opentelemetry_environment_does_not_change_what_the_client_records(
    monkeypatch: pytest.MonkeyPatch, clients: Clients, server: ReferenceServer
) -> None:
    # Variables the OpenTelemetry SDK reads when a provider is made without explicit values.
    for name, value in {
        "OTEL_SDK_DISABLED": "true",
        "OTEL_TRACES_SAMPLER": "always_off",
        "OTEL_ATTRIBUTE_COUNT_LIMIT": "1",
        "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "4",
        "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "1",
        "OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT": "4",
        "OTEL_LOGRECORD_ATTRIBUTE_COUNT_LIMIT": "1",
        "OTEL_LOGRECORD_ATTRIBUTE_VALUE_LENGTH_LIMIT": "4",
    }.items():
        monkeypatch.setenv(name, value)
    svc = clients()
    with svc.span("handler", attributes={"app.first": "long value", "app.second": "another long value"}) as span:
        svc.log_inference(input=[{"role": "user", "parts": [{"type": "text", "content": "hello there"}]}])
    assert svc.force_flush()
    stored = attributes(server.list_spans(span.trace_id)[0])
    assert (stored["app.first"], stored["app.second"]) == ("long value", "another long value")
    logged = attributes(server.list_logs(span.trace_id)[0])
    assert json.loads(str(logged["gen_ai.input.messages"]))[0]["parts"][0]["content"] == "hello there"


@given(st.integers().filter(lambda n: n < 100 or n > 60_000))
def test_any_integer_timeout_outside_the_range_is_refused_showing_the_value(timeout: int) -> None:
    with pytest.raises(InvalidOptionError) as raised:
        validate_options(**MINIMAL, timeout_millis=timeout)
    assert str(raised.value) == f"timeout_millis must be an integer from 100 to 60000; got {timeout}"


def test_existing_provider_form_checks_its_arguments() -> None:
    with pytest.raises(InvalidOptionError, match=r"^transport must be made by create_svc_transport"):
        Svc(transport=object(), tracer_provider=object(), logger_provider=object())  # type: ignore[call-overload]
    transport = create_svc_transport(**MINIMAL, base_url="http://127.0.0.1:9")
    with pytest.raises(InvalidOptionError, match=r"^tracer_provider must expose get_tracer\(\) and force_flush"):
        Svc(transport=transport, tracer_provider=object(), logger_provider=object())
