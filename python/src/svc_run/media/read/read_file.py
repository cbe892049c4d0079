"""Reads one recorded file: its download link with the key, then its bytes without it.

The link route is ``GET /api/v1/traces/{traceId}/blobs/{sha256}`` (or the trace-snapshot route);
the download link is a credential for five minutes, fetched without the key and never shown.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ...errors.media_fetch_error import MediaFetchError
from ...http.http_client import HttpClient, NoAnswerError
from ...http.service_request import display_origin, error_code, get_service_json
from ...options.svc_options import ServiceEndpoint
from .fetch_options import ReadTarget
from .media_fetch_failure import media_fetch_failure, too_large_failure

_MAX_LINK_BODY_BYTES = 64 * 1024
_MAX_ERROR_BODY_BYTES = 16 * 1024


@dataclass(frozen=True)
class ReadFileResult:
    """A file read back, with what the service knows of it."""

    data: bytes
    content_type: str
    name: str | None


@dataclass(frozen=True)
class _Link:
    url: str
    size: int
    content_type: str
    name: str | None


def _link_failure(origin: str, snapshot: bool, status: int, json_body: object) -> MediaFetchError:
    code = error_code(json_body)
    if status == 401:
        keys = "Read and write" if snapshot else "Read or Read and write"
        return media_fetch_failure(
            "forbidden",
            f"the service at {origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a key of "
            f"this project; use a {keys} key of the project.",
            status,
        )
    if status == 403:
        return media_fetch_failure(
            "forbidden",
            f"the service at {origin} refused the API key (HTTP 403): snapshot copies of files need a Read and "
            "write key; a Read key, Tracing key or setup credential cannot read them."
            if snapshot
            else f"the service at {origin} refused the API key (HTTP 403): reading recorded files needs a Read or "
            "Read and write key; a Tracing key or setup credential cannot read them.",
            status,
        )
    if status == 404 and code == "missing":
        where = "trace snapshot" if snapshot else "trace"
        return media_fetch_failure(
            "missing",
            f"the {where} lists this file but its bytes were never uploaded (or were erased) (HTTP 404); check "
            "the export status's upload_fallbacks of the application that recorded it.",
            status,
        )
    if status == 404 and code == "not_found":
        return media_fetch_failure(
            "not_found",
            "the trace snapshot lists no file with this SHA-256, or no snapshot has this ID (HTTP 404); check "
            "snapshot_id, sha256 and span_id."
            if snapshot
            else "the trace holds no file with this SHA-256 (HTTP 404); check trace_id, sha256 and span_id.",
            status,
        )
    if status == 404:
        return media_fetch_failure(
            "failed",
            f"{origin} does not serve file downloads (HTTP 404 without the service's error body); check base_url.",
            status,
        )
    if status == 503:
        return media_fetch_failure(
            "unavailable",
            f"the service at {origin} could not read its file storage (HTTP 503); try again later.",
            status,
        )
    if 300 <= status < 400:
        return media_fetch_failure(
            "failed",
            f"the service at {origin} answered with a redirect (HTTP {status}), which is not followed; set "
            "base_url to the service origin itself.",
            status,
        )
    return media_fetch_failure(
        "failed", f"the service at {origin} answered the download-link request with HTTP {status}.", status
    )


def _request_link(http: HttpClient, endpoint: ServiceEndpoint, target: ReadTarget, sha256: str) -> _Link:
    origin = display_origin(endpoint.base_url)
    snapshot = target.snapshot_id is not None
    path = (
        f"/api/v1/evals/trace-snapshots/{target.snapshot_id}/blobs/{sha256}"
        if snapshot
        else f"/api/v1/traces/{target.trace_id}/blobs/{sha256}"
    )
    try:
        response = get_service_json(
            http,
            endpoint,
            path,
            query=[] if target.span_id is None else [("spanId", target.span_id)],
            timeout_seconds=endpoint.timeout_millis / 1000,
            max_body_bytes=_MAX_LINK_BODY_BYTES,
        )
    except NoAnswerError as error:
        why = (
            f"did not answer within {endpoint.timeout_millis} ms"
            if error.failure == "timeout"
            else f"could not be reached ({error.reason})"
        )
        raise media_fetch_failure("failed", f"the service at {origin} {why}; check base_url and the network.") from None
    if response.status != 200:
        raise _link_failure(origin, snapshot, response.status, response.json)
    body = response.json
    if isinstance(body, dict):
        url, size, content_type, name = body.get("url"), body.get("size"), body.get("contentType"), body.get("name")
        if (
            isinstance(url, str)
            and url.lower().startswith(("http://", "https://"))
            and body.get("sha256") == sha256
            and isinstance(size, int)
            and not isinstance(size, bool)
            and size >= 0
            and isinstance(content_type, str)
            and (name is None or isinstance(name, str))
        ):
            return _Link(url, size, content_type, name)
    raise media_fetch_failure(
        "failed",
        f"the service at {origin} answered the download-link request with a body that is not a download link; "
        "check base_url.",
        200,
    )


def _download(http: HttpClient, link: _Link, sha256: str, max_bytes: int, timeout_millis: int) -> bytes:
    try:
        answer = http.request(
            "GET",
            link.url,
            headers={},
            timeout_seconds=timeout_millis / 1000,
            max_body_bytes=max(max_bytes, _MAX_ERROR_BODY_BYTES),
        )
    except NoAnswerError as error:
        # The cause is dropped on purpose: errors can carry the signed link.
        message = (
            f"the download did not answer within {timeout_millis} ms; try again."
            if error.failure == "timeout"
            else f"the download could not be completed ({error.reason}); try again."
        )
        raise media_fetch_failure("failed", message) from None
    status = answer.status
    if status != 200:
        code = None
        if answer.body is not None:
            try:
                code = error_code(json.loads(answer.body))
            except ValueError:
                code = None
        if status in (401, 403):
            raise media_fetch_failure(
                "forbidden",
                f"the download link expired before it was used (HTTP {status}); links last five minutes: fetch "
                "the file again."
                if code == "link_expired"
                else f"the download link was refused (HTTP {status}); fetch the file again, and do not change the "
                "link.",
                status,
            )
        if status == 404:
            if code == "missing":
                raise media_fetch_failure("missing", "the file's bytes are no longer stored (HTTP 404).", status)
            raise media_fetch_failure(
                "not_found", "the download link names no stored file (HTTP 404); fetch the file again.", status
            )
        if status == 503:
            raise media_fetch_failure(
                "unavailable", "the service could not read its file storage (HTTP 503); try again later.", status
            )
        if 300 <= status < 400:
            raise media_fetch_failure(
                "failed",
                f"the download link answered with a redirect (HTTP {status}), which is not followed.",
                status,
            )
        raise media_fetch_failure("failed", f"the download answered with HTTP {status}.", status)
    data = answer.body
    if data is None or len(data) > max_bytes:
        raise too_large_failure(max_bytes, status)
    if hashlib.sha256(data).hexdigest() != sha256:
        raise media_fetch_failure(
            "digest_mismatch",
            f"the bytes received do not have the SHA-256 asked for ({len(data)} bytes received); nothing is "
            "returned. Fetch again; if it persists, the stored file is damaged.",
            status,
        )
    return data


def read_file(http: HttpClient, endpoint: ServiceEndpoint, target: ReadTarget, sha256: str) -> ReadFileResult:
    """Reads the file ``sha256`` of the target.

    A file whose stored size is over ``max_bytes`` is not downloaded.

    Raises:
        MediaFetchError: for every failure.
    """
    link = _request_link(http, endpoint, target, sha256)
    if link.size > target.max_bytes:
        raise too_large_failure(target.max_bytes)
    data = _download(http, link, sha256, target.max_bytes, endpoint.timeout_millis)
    return ReadFileResult(data, link.content_type, link.name)
