"""Records spans and exits without flushing; prints, at exit after the client's own exit flush, what
happened to them. argv[1] is JSON ``{"origin", "key"}``."""

from __future__ import annotations

import atexit
import json
import sys

from svc_run import Svc

config = json.loads(sys.argv[1])
clients: list[Svc] = []


def report() -> None:
    # Registered before the client: runs after the client's exit flush (atexit runs last-in first).
    status = clients[0].export_status
    print(
        json.dumps(
            {
                "trace_id": trace_ids[0],
                "accepted": status.accepted_spans,
                "failed": status.failed_spans,
                "pending": status.pending_spans,
            }
        ),
        flush=True,
    )


atexit.register(report)
svc = Svc(api_key=config["key"], service_name="exits", capture_content=True, base_url=config["origin"])
clients.append(svc)
trace_ids = []
with svc.span("last request") as span:
    with svc.span("inner"):
        pass
    trace_ids.append(span.trace_id)
# No flush, no shutdown: the interpreter exits here.
