"""Spans and logs end to end against the reference server: nesting, identities, helper content,
receipts, the decorator, tool and model helpers, errors and inference logs."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.trace import SpanKind, StatusCode

from support.clients import Clients
from support.reference_server import ReferenceServer
from support.stored import attributes, span_named
from svc_run import UNSET, InvalidOptionError, Svc


def _flush(svc: Svc) -> None:
    assert svc.force_flush(), svc.export_status.issues


def test_spans_and_logs_arrive_nested_with_inherited_session_and_user(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    with svc.span("chat turn", input={"question": "hi"}, session_id="sess-1", user_id="user-1") as turn:
        with svc.span("retrieve", kind=SpanKind.CLIENT, attributes={"app.step": 1}) as retrieve:
            retrieve.set_output(["doc-1"])
        with svc.span("answer", user_id="user-2") as answer:
            svc.log_inference(input=[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}])
            answer.set_output({"answer": "hello"})
    _flush(svc)
    status = svc.export_status
    assert (status.accepted_spans, status.accepted_logs, status.pending_spans) == (3, 1, 0)
    spans = server.list_spans(turn.trace_id)
    root, child, last = (span_named(spans, name) for name in ("chat turn", "retrieve", "answer"))
    assert root["parentSpanId"] == ""
    assert child["parentSpanId"] == root["spanId"] == turn.span_id
    assert last["parentSpanId"] == turn.span_id
    assert child["kind"] == 3  # CLIENT
    assert attributes(root) == {
        "gen_ai.conversation.id": "sess-1",
        "user.id": "user-1",
        "input.value": '{"question":"hi"}',
        "input.mime_type": "application/json",
    }
    assert attributes(child)["gen_ai.conversation.id"] == "sess-1"
    assert attributes(child)["user.id"] == "user-1"
    assert attributes(child)["app.step"] == 1
    assert attributes(last)["user.id"] == "user-2"
    assert attributes(last)["gen_ai.conversation.id"] == "sess-1"
    logs = server.list_logs(turn.trace_id)
    assert len(logs) == 1
    assert logs[0]["spanId"] == answer.span_id
    assert logs[0]["eventName"] == "gen_ai.client.inference.operation.details"
    assert json.loads(str(attributes(logs[0])["gen_ai.input.messages"])) == [
        {"role": "user", "parts": [{"type": "text", "content": "hi"}]}
    ]
    verification = svc.verify_trace(
        turn.trace_id, [turn.span_id, retrieve.span_id, answer.span_id], ["input", "output", "session", "user"]
    )
    assert verification.verified
    assert verification.receipt is not None
    assert verification.receipt.span_count == 3
    assert sorted(verification.receipt.matched_span_ids) == sorted([turn.span_id, retrieve.span_id, answer.span_id])


def test_none_false_zero_and_empty_string_are_present_values(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    recorded = []
    for value in (None, False, 0, "", UNSET):
        with svc.span("value", input=value) as span:
            recorded.append(span)
    _flush(svc)
    stored = [attributes(server.list_spans(span.trace_id)[0]) for span in recorded]
    assert [item.get("input.value") for item in stored] == ["null", "false", "0", '""', None]


def test_helper_content_over_256_kib_or_not_json_is_not_recorded_and_warns(
    clients: Clients, server: ReferenceServer
) -> None:
    svc = clients()
    with svc.span("big", input="x" * (256 * 1024)) as big:
        big.set_output(object())
    with svc.span("fits", input="x" * (256 * 1024 - 2)) as fits:
        pass
    _flush(svc)
    assert "input.value" not in attributes(server.list_spans(big.trace_id)[0])
    assert "output.value" not in attributes(server.list_spans(big.trace_id)[0])
    assert len(str(attributes(server.list_spans(fits.trace_id)[0])["input.value"])) == 256 * 1024
    messages = [issue.message for issue in svc.export_status.issues if issue.kind == "warning"]
    assert "input was not recorded: its JSON is over 256 KiB" in messages
    assert "output was not recorded: it does not serialize as JSON" in messages


def test_the_span_decorator_on_functions_coroutines_and_generators(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    outer_ids: dict[str, str] = {}

    @svc.span("sync work")
    def work(x: int) -> int:
        handle = svc.current_span()
        assert handle is not None
        handle.set_output({"x": x})
        outer_ids["sync"] = handle.span_id
        return x * 2

    @svc.span("async work")
    async def async_work(x: int) -> int:
        await asyncio.sleep(0)
        handle = svc.current_span()
        assert handle is not None
        outer_ids["async"] = handle.span_id
        return x + 1

    @svc.span("stream")
    def stream(n: int) -> Any:
        for i in range(n):
            with svc.span(f"item {i}"):
                yield i

    with svc.span("root") as root:
        assert work(21) == 42
        assert asyncio.run(async_work(1)) == 2
        assert list(stream(2)) == [0, 1]
        # Outside the generator's own steps, the current span is the root again.
        assert svc.current_span() is not None
        assert svc.current_span().span_id == root.span_id  # type: ignore[union-attr]
    _flush(svc)
    spans = server.list_spans(root.trace_id)
    by_name = {span["name"]: span for span in spans}
    assert set(by_name) == {"root", "sync work", "async work", "stream", "item 0", "item 1"}
    assert by_name["sync work"]["parentSpanId"] == root.span_id
    assert by_name["async work"]["parentSpanId"] == root.span_id
    assert by_name["stream"]["parentSpanId"] == root.span_id
    assert by_name["item 0"]["parentSpanId"] == by_name["stream"]["spanId"]
    assert attributes(by_name["sync work"])["output.value"] == '{"x":21}'


def test_an_escaping_error_is_recorded_and_raised_unchanged(clients: Clients, server: ReferenceServer) -> None:
    for capture in (True, False):
        svc = clients(capture_content=capture)
        error = KeyError("secret account 42")
        with pytest.raises(KeyError) as raised, svc.span("failing") as span:
            raise error
        assert raised.value is error
        _flush(svc)
        stored = server.list_spans(span.trace_id)[0]
        assert stored["statusCode"] == 2  # ERROR
        assert attributes(stored)["error.type"] == "KeyError"
        exception = next(event for event in stored["events"] if event["name"] == "exception")
        if capture:
            assert "secret account 42" in stored["statusMessage"]
            assert "secret account 42" in str(attributes(exception)["exception.message"])
        else:
            assert stored["statusMessage"] == ""
            assert attributes(exception) == {"exception.type": "KeyError"}


def test_tool_records_arguments_and_result_sync_and_async(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("agent") as agent:
        assert svc.tool("add", {"a": 1, "b": 2}, lambda: 3) == 3

        async def lookup() -> dict[str, str]:
            await asyncio.sleep(0)
            return {"city": "Paris"}

        assert asyncio.run(svc.tool("lookup", {"q": "capital"}, lookup)) == {"city": "Paris"}
        # A plain function returning a coroutine: the span still covers the awaited work.
        coroutine_factory = lookup
        assert asyncio.run(svc.tool("lookup", {"q": "again"}, lambda: coroutine_factory())) == {"city": "Paris"}  # noqa: PLW0108
    _flush(svc)
    spans = server.list_spans(agent.trace_id)
    add = attributes(span_named(spans, "execute_tool add"))
    assert add["gen_ai.operation.name"] == "execute_tool"
    assert add["gen_ai.tool.name"] == "add"
    assert add["gen_ai.tool.call.arguments"] == '{"a":1,"b":2}'
    assert add["gen_ai.tool.call.result"] == "3"
    lookups = [span for span in spans if span["name"] == "execute_tool lookup"]
    assert [attributes(span)["gen_ai.tool.call.result"] for span in lookups] == ['{"city":"Paris"}'] * 2
    assert all(span["parentSpanId"] == agent.span_id for span in lookups)


def test_tool_with_an_mcp_session_records_the_server_name(clients: Clients, server: ReferenceServer) -> None:
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    weather = MCPServer(name="weather-server")

    @weather.tool()
    def forecast(city: str) -> str:
        return f"rain in {city}"

    svc = clients()

    async def run() -> tuple[str, Any]:
        async with Client(weather, mode="legacy") as client:
            with svc.span("agent") as agent:
                result = await svc.tool(
                    "forecast",
                    {"city": "Paris"},
                    lambda: client.call_tool("forecast", {"city": "Paris"}),
                    mcp=client.session,
                )
            return agent.trace_id, result

    trace_id, result = asyncio.run(run())
    assert "rain in Paris" in json.dumps(result.model_dump(mode="json"))
    _flush(svc)
    tool_span = span_named(server.list_spans(trace_id), "execute_tool forecast")
    assert attributes(tool_span)["mcp.server.name"] == "weather-server"
    assert "rain in Paris" in str(attributes(tool_span)["gen_ai.tool.call.result"])


def test_model_call_span_with_response_and_usage(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    messages = [{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]
    with svc.model(provider="openai", model="gpt-4o-mini", input=messages, session_id="s-9") as call:
        call.set_response(
            model="gpt-4o-mini-2024",
            id="resp-1",
            finish_reasons=["stop"],
            output=[{"role": "assistant", "parts": [{"type": "text", "content": "hello"}]}],
            usage={"input_tokens": 5, "output_tokens": 2},
        )
    _flush(svc)
    stored = server.list_spans(call.trace_id)[0]
    assert stored["name"] == "chat gpt-4o-mini"
    assert stored["kind"] == 3  # CLIENT
    values = attributes(stored)
    assert values["gen_ai.operation.name"] == "chat"
    assert values["gen_ai.provider.name"] == "openai"
    assert values["gen_ai.request.model"] == "gpt-4o-mini"
    assert values["gen_ai.response.model"] == "gpt-4o-mini-2024"
    assert values["gen_ai.response.finish_reasons"] == ["stop"]
    assert values["gen_ai.usage.input_tokens"] == 5
    assert values["gen_ai.usage.output_tokens"] == 2
    assert "gen_ai.usage.cache_read.input_tokens" not in values
    assert json.loads(str(values["gen_ai.input.messages"])) == messages
    receipt = svc.verify_trace(call.trace_id, [call.span_id], ["model", "usage", "input", "output"])
    assert receipt.verified


def test_log_inference_outside_a_span_emits_nothing_and_warns(clients: Clients) -> None:
    svc = clients()
    svc.log_inference(output=[{"role": "assistant"}])
    _flush(svc)
    assert svc.export_status.accepted_logs == 0
    assert [issue.message for issue in svc.export_status.issues] == [
        "log_inference emitted nothing: call it inside a span or pass an explicit context"
    ]


def test_an_explicit_parent_context(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("request") as request:
        parent = svc.get_context()
    with svc.span("late work", parent_context=parent) as late:
        assert trace.get_current_span().get_span_context().span_id == int(late.span_id, 16)
    _flush(svc)
    assert server.list_spans(request.trace_id)[1]["parentSpanId"] == request.span_id


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": " "}, 'span name must be a nonblank string; got " "'),
        ({"name": "x", "kind": 1}, "kind must be an opentelemetry.trace.SpanKind; got 1"),
        (
            {"name": "x", "session_id": ""},
            "session_id must be 1 to 4096 well-formed characters; got a string of 0 characters",
        ),
        (
            {"name": "x", "user_id": "u" * 4097},
            "user_id must be 1 to 4096 well-formed characters; got a string of 4097 characters",
        ),
        (
            {"name": "x", "user_id": "lone \ud800"},
            "user_id must be 1 to 4096 well-formed characters; got a string of 6 characters",
        ),
        ({"name": "x", "attributes": [1]}, "attributes must be a mapping of OpenTelemetry attributes; got a list"),
        ({"name": "x", "parent_context": {}}, "parent_context must be an opentelemetry.context.Context; got a dict"),
    ],
)
def test_span_options_are_validated(clients: Clients, kwargs: dict[str, Any], message: str) -> None:
    svc = clients()
    name = kwargs.pop("name")
    with pytest.raises(InvalidOptionError) as raised:
        svc.span(name, **kwargs)
    assert str(raised.value) == message


def test_status_codes_are_unset_without_errors(clients: Clients, server: ReferenceServer) -> None:
    svc = clients()
    with svc.span("fine") as span:
        pass
    _flush(svc)
    assert server.list_spans(span.trace_id)[0]["statusCode"] == StatusCode.UNSET.value
