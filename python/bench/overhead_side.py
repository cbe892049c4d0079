"""One side of the Python SDK overhead benchmark, in its own process (its CPU time is its own).

``sdk``: ``Svc.span`` with 5 attributes, ~2 KiB of JSON input and output, content capture on.
``plain``: OpenTelemetry's ``TracerProvider`` + ``BatchSpanProcessor`` + the official OTLP/HTTP
(protobuf) exporter, making the same spans (the application serializing input and output to the
same JSON). Both send to the same reference server. Prints one JSON line.

argv[1] is JSON ``{"side", "origin", "key", "spans", "warmup", "chunk", "seed"}``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

WORDS = [
    "the",
    "a",
    "model",
    "tool",
    "answer",
    "question",
    "agent",
    "search",
    "result",
    "context",
    "document",
    "user",
    "assistant",
    "system",
    "token",
    "stream",
    "call",
    "retry",
    "cache",
    "latency",
    "budget",
    "plan",
    "step",
    "summary",
]


def text(rng: random.Random, characters: int) -> str:
    out: list[str] = []
    size = 0
    while size < characters:
        word = rng.choice(WORDS) + " "
        out.append(word)
        size += len(word)
    return "".join(out)[:characters]


def content_pool(seed: int, size: int = 64) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Chat-shaped inputs and outputs whose JSON is about 2 KiB each (as the TypeScript bench)."""
    rng = random.Random(seed)
    inputs = [
        {
            "messages": [
                {"role": "system", "content": text(rng, 400)},
                {"role": "user", "content": text(rng, 1_500)},
            ],
            "temperature": 0.2,
            "variant": i,
        }
        for i in range(size)
    ]
    outputs = [
        {"message": {"role": "assistant", "content": text(rng, 1_850)}, "finishReason": "stop", "variant": i}
        for i in range(size)
    ]
    return inputs, outputs


def attributes_of(index: int) -> dict[str, Any]:
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "bench-model-1",
        "gen_ai.usage.input_tokens": 512 + index % 64,
        "gen_ai.usage.output_tokens": 256 + index % 32,
        "bench.span.index": index,
    }


def sdk_side(origin: str, key: str) -> tuple[Callable[[int, Any, Any], None], Callable[[], None], Callable[[], int]]:
    from svc_run import Svc

    svc = Svc(api_key=key, base_url=origin, service_name="bench-sdk", capture_content=True)

    def span(index: int, input: Any, output: Any) -> None:
        with svc.span("chat bench-model-1", input=input, attributes=attributes_of(index)) as handle:
            handle.set_output(output)

    def flush() -> None:
        svc.force_flush()

    return span, flush, lambda: svc.export_status.accepted_spans


def plain_side(origin: str, key: str) -> tuple[Callable[[int, Any, Any], None], Callable[[], None], Callable[[], int]]:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExportResult

    exporter = OTLPSpanExporter(endpoint=f"{origin}/api/v1/otlp/v1/traces", headers={"authorization": f"Bearer {key}"})
    accepted = [0]
    export = exporter.export

    def counting_export(spans: Any) -> SpanExportResult:
        result = export(spans)
        if result == SpanExportResult.SUCCESS:
            accepted[0] += len(spans)
        return result

    exporter.export = counting_export  # type: ignore[method-assign]
    provider = TracerProvider(resource=Resource.create({"service.name": "bench-plain"}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = provider.get_tracer("bench-plain", "1.0.0")

    def span(index: int, input: Any, output: Any) -> None:
        with tracer.start_as_current_span("chat bench-model-1", attributes=attributes_of(index)) as current:
            current.set_attribute("input.value", json.dumps(input, separators=(",", ":"), ensure_ascii=False))
            current.set_attribute("input.mime_type", "application/json")
            current.set_attribute("output.value", json.dumps(output, separators=(",", ":"), ensure_ascii=False))
            current.set_attribute("output.mime_type", "application/json")

    def flush() -> None:
        provider.force_flush()

    return span, flush, lambda: accepted[0]


def main() -> None:
    config = json.loads(sys.argv[1])
    make = sdk_side if config["side"] == "sdk" else plain_side
    span, flush, accepted = make(config["origin"], config["key"])
    inputs, outputs = content_pool(config["seed"])
    pool = len(inputs)
    for index in range(config["warmup"]):
        span(index, inputs[index % pool], outputs[index % pool])
    flush()
    before_accepted = accepted()
    cpu_before = time.process_time()
    wall_before = time.perf_counter()
    for index in range(config["spans"]):
        span(index, inputs[index % pool], outputs[index % pool])
        if (index + 1) % config["chunk"] == 0:
            flush()
    flush()
    cpu = time.process_time() - cpu_before
    wall = time.perf_counter() - wall_before
    print(json.dumps({"cpu": cpu, "wall": wall, "spans": config["spans"], "accepted": accepted() - before_accepted}))


if __name__ == "__main__":
    main()
