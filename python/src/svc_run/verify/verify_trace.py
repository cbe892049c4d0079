"""``verify_trace``: polls the trace receipt until the expected spans and fields are stored.

It never flushes and never sends telemetry. Only "trace not found", 429 and 503 are retried
(honouring ``Retry-After`` within the deadline); a receipt still missing spans or fields is polled
again until the deadline.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..errors.svc_trace_verification_error import SvcTraceVerificationError, TraceVerificationErrorCode
from ..export.retry_policy import parse_retry_after
from ..http.http_client import HttpClient, NoAnswerError
from ..http.service_request import ServiceResponse, display_origin, error_code, get_service_json
from ..options.svc_options import ServiceEndpoint
from .trace_receipt import TraceReceipt, TraceVerification, parse_trace_receipt
from .verify_options import ResolvedVerifyOptions, resolve_verify_options

MAX_RECEIPT_BYTES = 64 * 1024
"""Largest receipt body read (64 KiB); a longer one is a malformed response."""
_FIRST_BACKOFF_SECONDS = 0.1
_MAX_BACKOFF_SECONDS = 1.0


def _backoff_seconds(attempt: int) -> float:
    base = min(_MAX_BACKOFF_SECONDS, _FIRST_BACKOFF_SECONDS * float(2 ** min(attempt, 10)))
    return base * (0.5 + random.random() * 0.5)


def _fail(code: TraceVerificationErrorCode, message: str, status: int | None = None) -> SvcTraceVerificationError:
    return SvcTraceVerificationError(f"Trace verification failed: {message}", code, status)


def _status_failure(origin: str, status: int, json_body: object) -> SvcTraceVerificationError:
    if 300 <= status < 400:
        return _fail(
            "redirect",
            f"the service at {origin} answered with a redirect (HTTP {status}), which is not followed; set "
            "base_url to the service origin itself.",
            status,
        )
    if status == 401:
        return _fail(
            "unauthorized",
            f"the service at {origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a key "
            "of this project; check api_key, and set base_url to the service origin only.",
            status,
        )
    if status == 403:
        return _fail(
            "forbidden",
            f"the service at {origin} refused the API key (HTTP 403): use a Tracing, Read, or Read and write "
            "key, and set base_url to the service origin only.",
            status,
        )
    if status == 404 and error_code(json_body) != "not_found":
        return _fail(
            "unsupported_endpoint",
            f"{origin} does not serve trace receipts (HTTP 404 without the service's error body); check base_url.",
            status,
        )
    return _fail("http_error", f"the service at {origin} answered the receipt request with HTTP {status}.", status)


def _is_verified(receipt: TraceReceipt, options: ResolvedVerifyOptions) -> bool:
    matched = set(receipt.matched_span_ids)
    return (
        not receipt.missing_span_ids
        and all(span_id in matched for span_id in options.expected_span_ids)
        and all(receipt.fields.get(name) is True for name in options.required_fields)
    )


def _read_answer(origin: str, response: ServiceResponse, trace_id: str) -> TraceReceipt | float | None:
    """A receipt to judge, or the seconds a retried answer asks to wait (``None``: our backoff)."""
    status = response.status
    if status == 200:
        receipt = parse_trace_receipt(response.json, trace_id)
        if receipt is None:
            why = (
                f"is over {MAX_RECEIPT_BYTES // 1024} KiB"
                if response.too_large
                else "is not JSON or not a receipt of this trace"
            )
            raise _fail("malformed_response", f"the receipt sent by {origin} {why}.", status)
        return receipt
    if status == 404 and error_code(response.json) == "not_found":
        return None
    if status in (429, 503):
        return parse_retry_after(response.headers.get("retry-after"))
    raise _status_failure(origin, status, response.json)


def verify_trace(
    http: HttpClient,
    endpoint: ServiceEndpoint,
    trace_id: object,
    expected_span_ids: object = None,
    required_fields: object = None,
    timeout_millis: object = None,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> TraceVerification:
    """Polls ``GET /api/v1/traces/{trace_id}/receipt`` until verified or the deadline passes.

    Raises:
        InvalidOptionError: for invalid arguments.
        SvcTraceVerificationError: a redirect, a rejected key, an unexpected status, a malformed or
            oversized receipt, or a connection failure.
    """
    options = resolve_verify_options(trace_id, expected_span_ids, required_fields, timeout_millis)
    origin = display_origin(endpoint.base_url)
    query = [("expectedSpanId", span_id) for span_id in options.expected_span_ids]
    request_timeout = endpoint.timeout_millis / 1000
    deadline = clock() + options.timeout_millis / 1000
    latest: TraceReceipt | None = None
    attempt = 0
    while True:
        remaining = deadline - clock()
        if remaining <= 0:
            return TraceVerification(False, latest)
        clamped = remaining < request_timeout
        try:
            response = get_service_json(
                http,
                endpoint,
                f"/api/v1/traces/{options.trace_id}/receipt",
                query=query,
                timeout_seconds=max(0.001, min(request_timeout, remaining)),
                max_body_bytes=MAX_RECEIPT_BYTES,
            )
        except NoAnswerError as error:
            if error.failure == "timeout" and clamped:
                # The overall deadline, not the request's own timeout, cut this request short.
                return TraceVerification(False, latest)
            reason = (
                f"did not answer within {endpoint.timeout_millis} ms"
                if error.failure == "timeout"
                else f"could not be reached ({error.reason})"
            )
            raise _fail("connection_failed", f"the service at {origin} {reason}.") from None
        outcome = _read_answer(origin, response, options.trace_id)
        wait = _backoff_seconds(attempt)
        if isinstance(outcome, TraceReceipt):
            latest = outcome
            if _is_verified(latest, options):
                return TraceVerification(True, latest)
        elif outcome is not None:
            wait = max(wait, outcome)
        sleep(max(0.0, min(wait, deadline - clock())))
        attempt += 1
