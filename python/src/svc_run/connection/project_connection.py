"""The project connection returned by the connection check."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProjectConnection:
    """The project a key belongs to (spec "Project connection")."""

    id: str
    name: str
    organization_id: str
    slug: str
