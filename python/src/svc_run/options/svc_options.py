"""The client options of the spec's "Client options" table, validated."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..export.export_status import ExportIssue

DEFAULT_BASE_URL = "https://api.svc.run"
"""The hosted service's origin, the default ``base_url``."""
DEFAULT_TIMEOUT_MILLIS = 10_000
"""Default ``timeout_millis``: transport requests and the connection check."""

Redactor = Callable[[str, str], str]
"""Rewrites a string before export: ``redact(value, path) -> str``."""

ExportIssueCallback = Callable[["ExportIssue"], None]
"""Receives each sanitized export issue."""


@dataclass(frozen=True)
class ServiceEndpoint:
    """What an HTTP call to the service needs."""

    base_url: str
    """The origin, without a trailing slash."""
    api_key: str
    timeout_millis: int

    def __repr__(self) -> str:
        return f"ServiceEndpoint(base_url={self.base_url!r}, timeout_millis={self.timeout_millis})"


@dataclass(frozen=True)
class ResolvedOptions:
    """Options after validation: defaults applied, ``base_url`` normalized to its origin."""

    api_key: str
    service_name: str
    capture_content: bool
    base_url: str
    service_version: str | None
    timeout_millis: int
    redact: Redactor | None
    on_export_issue: ExportIssueCallback | None

    @property
    def endpoint(self) -> ServiceEndpoint:
        """The service endpoint of these options."""
        return ServiceEndpoint(self.base_url, self.api_key, self.timeout_millis)

    def __repr__(self) -> str:
        # The key is never shown.
        return (
            f"ResolvedOptions(service_name={self.service_name!r}, capture_content={self.capture_content!r}, "
            f"base_url={self.base_url!r}, timeout_millis={self.timeout_millis})"
        )
