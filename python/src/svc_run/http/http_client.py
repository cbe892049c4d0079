"""One keep-alive connection pool per client, and how an exchange ends.

Redirects are never followed, retries are the caller's, bodies are read up to a cap, and no answer
(refused, reset, timed out) raises :class:`NoAnswerError` with a short key-free reason. Forked children
get a new pool (sockets are never shared with the parent).
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

import urllib3
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import NewConnectionError
from urllib3.exceptions import TimeoutError as Urllib3Timeout

from .untraced import untraced

_READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class HttpAnswer:
    """An HTTP answer, whatever its status."""

    status: int
    headers: Mapping[str, str]
    """Response headers (case-insensitive mapping)."""
    body: bytes | None
    """The body read, or ``None`` when it was longer than the cap (it was not read to the end)."""


class NoAnswerError(Exception):
    """No HTTP answer: the connection failed, was reset, or the timeout passed.

    ``reason`` is a short key-free word for messages: an errno name such as ``ECONNREFUSED``, an
    error class name, or ``timeout``.
    """

    def __init__(self, failure: Literal["timeout", "network"], reason: str) -> None:
        super().__init__(reason)
        self.failure: Literal["timeout", "network"] = failure
        self.reason = reason


def network_reason(error: BaseException) -> str:
    """A short, key-free reason of a network error (``ECONNRESET``), never its message."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno is not None and current.errno in errno.errorcode:
            return errno.errorcode[current.errno]
        for arg in current.args:
            if isinstance(arg, BaseException) and id(arg) not in seen:
                nested = network_reason(arg)
                if nested != "network error":
                    return nested
        current = current.__cause__ or current.__context__
    name = type(error).__name__
    return name if name.isascii() and name.isalnum() else "network error"


class HttpClient:
    """A keep-alive pool shared by a client's exports, uploads and reads."""

    def __init__(self, max_connections: int = 8) -> None:
        self._max_connections = max_connections
        self._lock = threading.Lock()
        self._pool = self._new_pool()

    def _new_pool(self) -> urllib3.PoolManager:
        return urllib3.PoolManager(num_pools=4, maxsize=self._max_connections, block=False, retries=False)

    def after_fork(self) -> None:
        """In a forked child: a new pool; the parent's sockets are left to the parent."""
        self._lock = threading.Lock()
        self._pool = self._new_pool()

    def close(self) -> None:
        """Closes idle connections (requests in flight finish)."""
        self._pool.clear()

    def request(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str],
        body: bytes | Iterable[bytes | memoryview] | None = None,
        timeout_seconds: float,
        max_body_bytes: int,
    ) -> HttpAnswer:
        """One exchange; any status returns, a 3xx is not followed.

        Raises:
            NoAnswerError: when no HTTP answer came within ``timeout_seconds`` (per connect and per read).
        """
        timeout = urllib3.Timeout(connect=timeout_seconds, read=timeout_seconds)
        try:
            with untraced():
                response = self._pool.request(
                    method,
                    url,
                    headers=dict(headers),
                    # Chunks may be memoryviews of reused slice buffers: sent before the next is made.
                    body=cast(Any, body),
                    timeout=timeout,
                    retries=False,
                    redirect=False,
                    preload_content=False,
                )
                complete = False
                try:
                    data = _read_capped(response, max_body_bytes)
                    answer_headers = dict(response.headers.items())
                    complete = data is not None
                finally:
                    if complete:
                        response.release_conn()
                    else:
                        response.close()
        except NoAnswerError:
            raise
        except NewConnectionError as error:
            # A subclass of urllib3's timeout errors, though nothing timed out (refused, no route).
            raise NoAnswerError("network", network_reason(error)) from error
        except Urllib3Timeout as error:
            raise NoAnswerError("timeout", "timeout") from error
        except (Urllib3Error, OSError) as error:
            raise NoAnswerError("network", network_reason(error)) from error
        return HttpAnswer(response.status, _Headers(answer_headers), data)


def _read_capped(response: urllib3.BaseHTTPResponse, max_bytes: int) -> bytes | None:
    declared = response.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read(_READ_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > max_bytes:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class _Headers(dict[str, str]):
    """Response headers looked up without regard to case."""

    def __init__(self, headers: Mapping[str, str]) -> None:
        super().__init__({name.lower(): value for name, value in headers.items()})

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return super().get(key.lower(), default)

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key.lower())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(key.lower())
