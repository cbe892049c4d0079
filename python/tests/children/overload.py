"""100,000 spans as fast as possible; prints the export status and the peak RSS growth.

argv[1] is JSON ``{"origin", "key", "spans"}``.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from children.rss import PeakRss
from svc_run import Svc

config = json.loads(sys.argv[1])
svc = Svc(api_key=config["key"], service_name="overload", capture_content=True, base_url=config["origin"])
# Warm up: the code paths loaded, the connection open.
for _ in range(100):
    with svc.span("warm-up"):
        pass
assert svc.force_flush()
gc.collect()
meter = PeakRss().start()
for i in range(config["spans"]):
    with svc.span("burst", attributes={"i": i}) as span:
        span.set_input({"i": i})
meter.sample()
svc.force_flush(120_000)
growth = meter.stop()
status = svc.export_status
dropped_issues = sum(issue.count for issue in status.issues if issue.kind == "dropped")
print(
    json.dumps(
        {
            "growth": growth,
            "accepted": status.accepted_spans - 100,
            "dropped": status.dropped_spans,
            "failed": status.failed_spans,
            "rejected": status.rejected_spans,
            "pending": status.pending_spans,
            "dropped_issues": dropped_issues,
            "issues_kept": len(status.issues),
        }
    )
)
