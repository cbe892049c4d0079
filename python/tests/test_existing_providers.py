"""The existing-provider form: the service's processors on the application's providers."""

from __future__ import annotations

from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from support.reference_server import ReferenceServer
from support.stored import attributes
from svc_run import Svc, create_svc_transport


def test_the_applications_providers_export_to_the_service_and_keep_their_other_exporters(
    server: ReferenceServer,
) -> None:
    transport = create_svc_transport(
        api_key=server.keys.tracing, service_name="app", capture_content=True, base_url=server.origin
    )
    other = InMemorySpanExporter()
    tracer_provider = TracerProvider(resource=Resource({"service.name": "app-owned"}), shutdown_on_exit=False)
    tracer_provider.add_span_processor(SimpleSpanProcessor(other))
    tracer_provider.add_span_processor(transport.span_processor)
    logger_provider = LoggerProvider(resource=Resource({"service.name": "app-owned"}), shutdown_on_exit=False)
    logger_provider.add_log_record_processor(transport.log_record_processor)
    svc = Svc(transport=transport, tracer_provider=tracer_provider, logger_provider=logger_provider)
    app_tracer = tracer_provider.get_tracer("app")
    with svc.span("handler", input={"q": 1}) as handler:
        # An instrumentation's span on the application's tracer nests under the client's span.
        with app_tracer.start_as_current_span("db query"):
            pass
        svc.log_inference(output=[{"role": "assistant", "parts": []}])
    assert svc.force_flush()
    stored = server.list_spans(handler.trace_id)
    assert sorted(span["name"] for span in stored) == ["db query", "handler"]
    db = next(span for span in stored if span["name"] == "db query")
    assert db["parentSpanId"] == handler.span_id
    assert attributes(next(span for span in stored if span["name"] == "handler"))["input.value"] == '{"q":1}'
    assert len(server.list_logs(handler.trace_id)) == 1
    # The application's own exporter still got both spans; the application owns the providers.
    assert sorted(span.name for span in other.get_finished_spans()) == ["db query", "handler"]
    assert svc.export_status.accepted_spans == 2
    tracer_provider.shutdown()
    logger_provider.shutdown()
    # After the provider shut the processor down, a later span is dropped and counted.
    with svc.span("late"):
        pass
    assert not svc.force_flush()
    status = svc.export_status
    assert (status.accepted_spans, status.dropped_spans, status.pending_spans) == (2, 1, 0)
    assert [issue.kind for issue in status.issues] == ["dropped"]
