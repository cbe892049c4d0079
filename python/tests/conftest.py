"""Shared fixtures: the reference server (one per test session, with fault injection)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.clients import clients  # noqa: F401
from support.reference_server import ReferenceServer


@pytest.fixture(scope="session")
def server() -> Iterator[ReferenceServer]:
    """The reference server, started once for the session, with fault injection."""
    running = ReferenceServer({"faultInjection": True})
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(autouse=True)
def _no_faults_left(request: pytest.FixtureRequest) -> Iterator[None]:
    """Faults a test injected and did not use do not leak into the next test."""
    yield
    if "server" in request.fixturenames:
        request.getfixturevalue("server").clear_faults()
