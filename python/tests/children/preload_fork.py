"""A Gunicorn ``--preload``-style parent: creates the client, then forks two workers.

Each worker records a span and exits normally without flushing (the interpreter's exit flush
delivers it). The parent prints one JSON line: the workers' trace IDs and exit codes.
argv[1] is JSON ``{"origin", "key"}``.
"""

from __future__ import annotations

import json
import os
import sys

from svc_run import Svc

config = json.loads(sys.argv[1])
svc = Svc(api_key=config["key"], service_name="preload", capture_content=True, base_url=config["origin"])
# The parent traces too before forking: its queue must not leak into the workers.
with svc.span("parent start-up"):
    pass

workers = []
for index in range(2):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        with svc.span("worker request", attributes={"worker.index": index}) as span:
            span.set_output({"pid": os.getpid()})
        os.write(write_end, span.trace_id.encode())
        os.close(write_end)
        sys.exit(0)
    os.close(write_end)
    workers.append((pid, read_end))

results = []
for pid, read_end in workers:
    with os.fdopen(read_end) as pipe:
        trace_id = pipe.read()
    _, status = os.waitpid(pid, 0)
    results.append({"trace_id": trace_id, "exit_code": os.waitstatus_to_exitcode(status)})
assert svc.force_flush()
print(json.dumps({"workers": results, "parent_accepted": svc.export_status.accepted_spans}))
