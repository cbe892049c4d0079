"""Reads an OTLP/HTTP protobuf export response: how many records the service refused.

``partial_success.rejected_spans`` / ``rejected_log_records``, and whether it sent a warning (an
``error_message`` with nothing refused). The message itself is never kept: it is the service's.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceResponse
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from .export_status import Signal


@dataclass(frozen=True)
class Acknowledgement:
    """A readable acknowledgement."""

    rejected: int
    warning: bool


def read_acknowledgement(signal: Signal, body: bytes | None) -> Acknowledgement | None:
    """The acknowledgement in ``body``, or ``None`` when it is not an OTLP export response."""
    if body is None:
        return None
    if len(body) == 0:
        return Acknowledgement(0, False)
    try:
        if signal == "traces":
            traces = ExportTraceServiceResponse.FromString(body)
            if not traces.HasField("partial_success"):
                return Acknowledgement(0, False)
            rejected = traces.partial_success.rejected_spans
            message = traces.partial_success.error_message
        else:
            logs = ExportLogsServiceResponse.FromString(body)
            if not logs.HasField("partial_success"):
                return Acknowledgement(0, False)
            rejected = logs.partial_success.rejected_log_records
            message = logs.partial_success.error_message
    except (DecodeError, ValueError):
        return None
    if rejected < 0:
        return None
    return Acknowledgement(rejected, rejected == 0 and message != "")
