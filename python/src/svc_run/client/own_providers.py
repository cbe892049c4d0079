"""The client's private tracer and logger providers (never registered globally).

They follow only the client's options: the OpenTelemetry SDK reads ``OTEL_SDK_DISABLED``, the
sampler and the attribute limits from the environment when a provider or its limits are made
without explicit values, so every one is given explicitly here (the spec: constructors do not read
environment variables; the application reads them and passes values).
"""

from __future__ import annotations

from opentelemetry.sdk._logs import LoggerProvider, LogRecordLimits, LogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanLimits, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.id_generator import RandomIdGenerator
from opentelemetry.sdk.trace.sampling import ALWAYS_ON, ParentBased

MAX_RECORD_ATTRIBUTES = 128
"""Attributes, events and links a span keeps, and attributes a log record keeps (OpenTelemetry's default)."""

_SPAN_LIMITS = dict(
    max_attributes=MAX_RECORD_ATTRIBUTES,
    max_events=MAX_RECORD_ATTRIBUTES,
    max_links=MAX_RECORD_ATTRIBUTES,
    max_span_attributes=MAX_RECORD_ATTRIBUTES,
    max_event_attributes=MAX_RECORD_ATTRIBUTES,
    max_link_attributes=MAX_RECORD_ATTRIBUTES,
    max_attribute_length=SpanLimits.UNSET,
    max_span_attribute_length=SpanLimits.UNSET,
)


def _enabled_whatever_the_environment(provider: TracerProvider | LoggerProvider) -> None:
    # Both providers read OTEL_SDK_DISABLED in their constructor and keep it here; no argument
    # overrides it. A provider without the attribute (another SDK version) is left as it is.
    if getattr(provider, "_disabled", False) is True:
        provider._disabled = False


def own_providers(
    resource: Resource, span_processor: SpanProcessor, log_record_processor: LogRecordProcessor
) -> tuple[TracerProvider, LoggerProvider]:
    """A tracer provider and a logger provider with ``resource``, exporting through the processors."""
    tracer_provider = TracerProvider(
        sampler=ParentBased(ALWAYS_ON),
        resource=resource,
        shutdown_on_exit=False,
        id_generator=RandomIdGenerator(),
        span_limits=SpanLimits(**_SPAN_LIMITS),
    )
    _enabled_whatever_the_environment(tracer_provider)
    tracer_provider.add_span_processor(span_processor)
    logger_provider = LoggerProvider(
        resource=resource,
        shutdown_on_exit=False,
        log_record_limits=LogRecordLimits(
            max_attributes=MAX_RECORD_ATTRIBUTES,
            max_attribute_length=LogRecordLimits.UNSET,
            max_log_record_attributes=MAX_RECORD_ATTRIBUTES,
            max_log_record_attribute_length=LogRecordLimits.UNSET,
        ),
    )
    _enabled_whatever_the_environment(logger_provider)
    logger_provider.add_log_record_processor(log_record_processor)
    return tracer_provider, logger_provider
