"""A plain HTTP server answering every request through a handler: for answers the reference server
does not give (redirects, malformed bodies, oversized receipts)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Handler = Callable[[BaseHTTPRequestHandler], None]


@contextmanager
def plain_server(handle: Handler) -> Iterator[str]:
    """Serves ``handle`` on 127.0.0.1; yields the origin."""

    class RequestHandler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            handle(self)

        def do_POST(self) -> None:
            handle(self)

        def do_PUT(self) -> None:
            handle(self)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def answer(
    request: BaseHTTPRequestHandler, status: int, body: bytes = b"", headers: dict[str, str] | None = None
) -> None:
    """Sends one answer."""
    request.send_response(status)
    for name, value in (headers or {}).items():
        request.send_header(name, value)
    request.send_header("content-length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)
