"""One GET of a JSON resource from the service (connection check, receipts, download links).

Redirects are not followed, the body is read up to a cap, and tracing is suppressed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from ..options.svc_options import ServiceEndpoint
from .http_client import HttpClient


@dataclass(frozen=True)
class ServiceResponse:
    """The answer to a GET, whatever its status."""

    status: int
    headers: Mapping[str, str]
    json: object
    """The parsed body; ``None`` when empty, not JSON, or over the cap (see ``too_large``)."""
    too_large: bool


def service_url(base_url: str, path: str, query: Sequence[tuple[str, str]] = ()) -> str:
    """``{base_url}{path}?query``, with the query encoded."""
    base = base_url[:-1] if base_url.endswith("/") else base_url
    search = urlencode(list(query))
    return f"{base}{path}{'?' + search if search else ''}"


def display_origin(base_url: str) -> str:
    """The origin of ``base_url`` for messages: never credentials or a path."""
    try:
        parts = urlsplit(base_url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return "the configured base_url (not a valid URL)"
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}{port}"


def error_code(json_body: object) -> str | None:
    """The ``error.code`` of a body ``{"error": {"code", "message"}}``; the message is never read."""
    if not isinstance(json_body, dict):
        return None
    error = json_body.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


def get_service_json(
    http: HttpClient,
    endpoint: ServiceEndpoint,
    path: str,
    *,
    query: Sequence[tuple[str, str]] = (),
    timeout_seconds: float,
    max_body_bytes: int,
) -> ServiceResponse:
    """GETs a JSON resource with ``Authorization: Bearer <api_key>``; any status returns.

    Raises:
        NoAnswerError: no HTTP answer within the timeout (connection refused, reset, timed out).
    """
    answer = http.request(
        "GET",
        service_url(endpoint.base_url, path, query),
        headers={"authorization": f"Bearer {endpoint.api_key}", "accept": "application/json"},
        timeout_seconds=timeout_seconds,
        max_body_bytes=max_body_bytes,
    )
    if 300 <= answer.status < 400 or answer.body is None:
        return ServiceResponse(answer.status, answer.headers, None, answer.body is None)
    parsed: object = None
    if answer.body:
        try:
            parsed = json.loads(answer.body)
        except ValueError:
            parsed = None
    return ServiceResponse(answer.status, answer.headers, parsed, False)
