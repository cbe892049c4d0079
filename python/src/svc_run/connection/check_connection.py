"""The connection check (``validate_project()``): ``GET /api/v1/projects/current``.

It sends no telemetry. Failures raise :class:`~svc_run.SvcConnectionError`, whose message never
holds the key or the response body.
"""

from __future__ import annotations

from ..errors.svc_connection_error import SvcConnectionError
from ..http.http_client import HttpClient, NoAnswerError
from ..http.service_request import display_origin, get_service_json
from ..options.svc_options import ServiceEndpoint
from .project_connection import ProjectConnection

PROJECT_PATH = "/api/v1/projects/current"
_MAX_PROJECT_BODY_BYTES = 64 * 1024
_KEY_ADVICE = (
    "Use a current key of this project whose preset allows the project check (Tracing, Read, or Read "
    "and write), and set base_url to the service origin only, without an API path."
)


def _status_error(origin: str, status: int) -> SvcConnectionError:
    if status == 401:
        return SvcConnectionError(
            f"The service at {origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a "
            f"key of this project. {_KEY_ADVICE}",
            status,
        )
    if status == 403:
        return SvcConnectionError(
            f"The service at {origin} refused the API key (HTTP 403): its preset does not allow this route. "
            f"{_KEY_ADVICE}",
            status,
        )
    if 300 <= status < 400:
        return SvcConnectionError(
            f"The service at {origin} answered the connection check with a redirect (HTTP {status}), which "
            "is not followed; set base_url to the service origin itself.",
            status,
        )
    return SvcConnectionError(f"The service at {origin} answered the connection check with HTTP {status}.", status)


def check_connection(http: HttpClient, endpoint: ServiceEndpoint) -> ProjectConnection:
    """The project ``endpoint.api_key`` belongs to.

    Raises:
        SvcConnectionError: the key was rejected (``status`` 401 or 403), another status answered,
            no answer came within the timeout (no ``status``), or the response is invalid.
    """
    origin = display_origin(endpoint.base_url)
    try:
        response = get_service_json(
            http,
            endpoint,
            PROJECT_PATH,
            timeout_seconds=endpoint.timeout_millis / 1000,
            max_body_bytes=_MAX_PROJECT_BODY_BYTES,
        )
    except NoAnswerError as error:
        if error.failure == "timeout":
            raise SvcConnectionError(
                f"The connection check timed out: the service at {origin} did not answer within "
                f"{endpoint.timeout_millis} ms."
            ) from None
        raise SvcConnectionError(
            f"Could not connect to the service at {origin} ({error.reason}); check base_url and the network."
        ) from None
    if response.status != 200:
        raise _status_error(origin, response.status)
    body = response.json
    if isinstance(body, dict):
        fields = (body.get("id"), body.get("name"), body.get("organizationId"), body.get("slug"))
        if all(isinstance(value, str) for value in fields):
            project_id, name, organization_id, slug = (str(value) for value in fields)
            return ProjectConnection(project_id, name, organization_id, slug)
    raise SvcConnectionError(
        f"The service at {origin} sent an invalid response to the connection check: expected the project as "
        "JSON { id, name, organizationId, slug }. Check that base_url is the service origin."
    )
