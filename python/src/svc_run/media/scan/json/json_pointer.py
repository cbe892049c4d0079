"""JSON pointers (RFC 6901) as the scanner writes them in ``svc.blobs`` keys."""

from __future__ import annotations

from collections.abc import Iterable


def escape_pointer_token(token: str) -> str:
    """Escapes one reference token: ``~`` → ``~0``, ``/`` → ``~1``."""
    if "~" not in token and "/" not in token:
        return token
    return token.replace("~", "~0").replace("/", "~1")


def format_pointer(tokens: Iterable[str | int]) -> str:
    """The pointer of ``tokens`` (array indexes as ints, member names as strings); ``""`` for none."""
    return "".join(f"/{token}" if isinstance(token, int) else f"/{escape_pointer_token(token)}" for token in tokens)


def parse_pointer(pointer: str) -> list[str] | None:
    """The reference tokens of ``pointer``, or ``None`` when it is not a JSON pointer."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]
