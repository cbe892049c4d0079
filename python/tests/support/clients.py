"""Making clients against the reference server, and shutting them down after each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from svc_run import Svc

from .reference_server import ReferenceServer


class Clients:
    """Creates clients of the reference server; the fixture shuts them all down."""

    def __init__(self, server: ReferenceServer) -> None:
        self.server = server
        self._made: list[Svc] = []

    def __call__(self, *, key: str | None = None, capture_content: bool = True, **options: Any) -> Svc:
        """A client with the Tracing key (or ``key``), content capture on, a 5 s timeout."""
        options.setdefault("timeout_millis", 5_000)
        client = Svc(
            api_key=self.server.keys.tracing if key is None else key,
            service_name=options.pop("service_name", "python-tests"),
            capture_content=capture_content,
            base_url=self.server.origin,
            **options,
        )
        self._made.append(client)
        return client

    def close(self) -> None:
        for client in self._made:
            client.shutdown_safe(2_000)


@pytest.fixture
def clients(server: ReferenceServer) -> Iterator[Clients]:
    """A factory of clients of the session's reference server."""
    made = Clients(server)
    try:
        yield made
    finally:
        made.close()
