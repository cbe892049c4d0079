"""Reads the answer of the reservation route: the bytes are held already, or where to PUT them."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Exists:
    """The trace already holds the bytes."""


@dataclass(frozen=True)
class PutLink:
    """Where and how to PUT the bytes."""

    url: str
    headers: dict[str, str]

    def __repr__(self) -> str:
        # A signed link is a credential for 15 minutes: never shown.
        return "PutLink(url=<signed link>)"


def read_reservation(json: object) -> Exists | PutLink | None:
    """The reservation in ``json``, or ``None`` when it is not a valid answer."""
    if not isinstance(json, dict):
        return None
    status = json.get("status")
    if status == "exists":
        return Exists()
    url = json.get("url")
    if status != "upload" or not isinstance(url, str):
        return None
    method = json.get("method", "PUT")
    if method != "PUT":
        return None
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    if scheme not in ("http", "https"):
        return None
    headers: dict[str, str] = {}
    given = json.get("headers")
    if given is not None:
        if not isinstance(given, dict):
            return None
        for name, value in given.items():
            if not isinstance(name, str) or not isinstance(value, str) or name.lower() == "authorization":
                return None
            headers[name] = value
    return PutLink(url, headers)
