"""The one place client options are validated: the rules of the spec's "Client options" table.

Every invalid option raises :class:`~svc_run.InvalidOptionError` (a ``TypeError`` and a
``ValueError``) whose message names the option, the bad value and the rule, for example
``timeout_millis must be an integer from 100 to 60000; got 50``. The value of ``api_key`` is never
shown (only its type), and credentials in a ``base_url`` are masked. Options are checked in the
order of the spec's table and the first failure is raised. Nothing is read from the environment.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit

from ..errors.invalid_option_error import InvalidOptionError
from ..media.scan.json.js_text import js_has_non_space
from .describe import describe, type_name
from .svc_options import (
    DEFAULT_BASE_URL,
    DEFAULT_TIMEOUT_MILLIS,
    ExportIssueCallback,
    Redactor,
    ResolvedOptions,
)

MAX_SERVICE_NAME_CHARACTERS = 256
MIN_TIMEOUT_MILLIS = 100
MAX_TIMEOUT_MILLIS = 60_000

_LOOPBACK_V4 = re.compile(r"127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
_DEFAULT_PORTS = {"https": 443, "http": 80}


def validate_api_key(value: object) -> str:
    """The ``api_key`` rule: a non-empty string. Only the type of a bad value is shown."""
    if isinstance(value, str) and value != "":
        return value
    raise InvalidOptionError(f"api_key must be a non-empty string; got {type_name(value)}")


def _validate_service_name(value: object) -> str:
    if isinstance(value, str) and js_has_non_space(value) and len(value) <= MAX_SERVICE_NAME_CHARACTERS:
        return value
    raise InvalidOptionError(
        f"service_name must be a string of 1 to {MAX_SERVICE_NAME_CHARACTERS} characters with "
        f"non-whitespace content; got {describe(value)}"
    )


def _validate_capture_content(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise InvalidOptionError(f"capture_content must be set explicitly to True or False; got {describe(value)}")


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or _LOOPBACK_V4.fullmatch(host) is not None


def validate_base_url(value: object) -> str:
    """The ``base_url`` rule: returns the origin (no trailing slash), or the default when ``None``."""
    if value is None:
        return DEFAULT_BASE_URL
    if not isinstance(value, str):
        raise InvalidOptionError(f"base_url must be a URL string (e.g. {DEFAULT_BASE_URL}); got {describe(value)}")
    absolute = f"base_url must be an absolute URL (e.g. {DEFAULT_BASE_URL}); got {describe(value)}"
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise InvalidOptionError(absolute) from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme == "" or parts.netloc == "" or host == "" or not value.isascii() or any(c.isspace() for c in value):
        raise InvalidOptionError(absolute)
    if "@" in parts.netloc:
        masked = f"{scheme}://***@{parts.netloc.rsplit('@', 1)[1]}{value[len(parts.scheme) + 3 + len(parts.netloc) :]}"
        raise InvalidOptionError(
            f"base_url must not contain a username or password (pass the key as api_key); got {describe(masked)}"
        )
    if scheme != "https" and not (scheme == "http" and _is_loopback(host)):
        raise InvalidOptionError(
            f"base_url must use https (http is allowed only for loopback hosts); got {describe(value)}"
        )
    rest = value[len(parts.scheme) + 3 + len(parts.netloc) :]
    if rest not in ("", "/"):
        raise InvalidOptionError(
            f"base_url must be an origin without a path, query or fragment (e.g. {DEFAULT_BASE_URL}); "
            f"got {describe(value)}"
        )
    shown_host = f"[{host}]" if ":" in host else host
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown_host}"
    return f"{scheme}://{shown_host}:{port}"


def _validate_service_version(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidOptionError(f"service_version must be a string when set; got {describe(value)}")


def validate_integer_option(name: str, value: object, minimum: int, maximum: int, fallback: int) -> int:
    """``value`` when it is an int from ``minimum`` to ``maximum``; ``fallback`` when ``None``."""
    if value is None:
        return fallback
    if isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= maximum:
        return value
    raise InvalidOptionError(f"{name} must be an integer from {minimum} to {maximum}; got {describe(value)}")


def validate_timeout_millis(value: object) -> int:
    """The ``timeout_millis`` rule: an int from 100 to 60000, default 10000."""
    return validate_integer_option(
        "timeout_millis", value, MIN_TIMEOUT_MILLIS, MAX_TIMEOUT_MILLIS, DEFAULT_TIMEOUT_MILLIS
    )


def _validate_callable(name: str, shape: str, value: object) -> Callable[..., object] | None:
    if value is None or callable(value):
        return value
    raise InvalidOptionError(f"{name} must be a function {shape} when set; got {describe(value)}")


def validate_options(
    *,
    api_key: object,
    service_name: object,
    capture_content: object,
    base_url: object = None,
    service_version: object = None,
    timeout_millis: object = None,
    redact: object = None,
    on_export_issue: object = None,
) -> ResolvedOptions:
    """Checks the client options against the spec's rules; returns them with defaults applied.

    Raises:
        InvalidOptionError: the first option (in the spec table's order) that breaks its rule.
    """
    resolved_key = validate_api_key(api_key)
    resolved_name = _validate_service_name(service_name)
    resolved_capture = _validate_capture_content(capture_content)
    resolved_url = validate_base_url(base_url)
    resolved_version = _validate_service_version(service_version)
    resolved_timeout = validate_timeout_millis(timeout_millis)
    resolved_redact: Redactor | None = _validate_callable("redact", "(value, path) -> str", redact)  # type: ignore[assignment]
    resolved_callback: ExportIssueCallback | None = _validate_callable(  # type: ignore[assignment]
        "on_export_issue", "(issue) -> None", on_export_issue
    )
    return ResolvedOptions(
        api_key=resolved_key,
        service_name=resolved_name,
        capture_content=resolved_capture,
        base_url=resolved_url,
        service_version=resolved_version,
        timeout_millis=resolved_timeout,
        redact=resolved_redact,
        on_export_issue=resolved_callback,
    )
