"""Records one large file through the SDK and prints its peak RSS growth while recording, exporting
and uploading it.

argv[1] is JSON: ``{"mode": "path", "origin", "key", "path"}`` (a ``path`` attachment in a span's
input) or ``{"mode": "base64", "origin", "key", "bytes"}`` (a base64 image of ``bytes`` decoded
bytes inside a span's ``gen_ai.input.messages``, an attribute too large to parse).
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from children.rss import PeakRss
from svc_run import Attachment, Svc

PNG_HEAD = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])
"""The PNG signature and one more byte: 9 bytes, 12 base64 characters."""

config = json.loads(sys.argv[1])
svc = Svc(
    api_key=config["key"],
    service_name="upload-memory",
    capture_content=True,
    base_url=config["origin"],
    timeout_millis=60_000,
)
expected: dict[str, object] = {}
value: str | None = None
if config["mode"] == "base64":
    size = config["bytes"]
    zeros = (size - len(PNG_HEAD)) // 3
    digest = hashlib.sha256(PNG_HEAD)
    block = bytes(3 * 1024 * 1024)
    left = zeros * 3
    while left > 0:
        digest.update(block[: min(left, len(block))])
        left -= len(block)
    image = "iVBORw0KGgoA" + "AAAA" * zeros
    value = (
        '[{"role":"user","parts":[{"type":"text","content":"What is this?"},'
        f'{{"type":"blob","modality":"image","mime_type":"image/png","content":"{image}"}}]}}]'
    )
    del image
    expected = {"sha256": digest.hexdigest(), "size": size}
gc.collect()
meter = PeakRss().start()
with svc.span("large file") as span:
    if config["mode"] == "path":
        attachment = Attachment(path=config["path"], content_type="application/octet-stream", name="large.bin")
        expected = {"sha256": attachment.sha256, "size": attachment.size}
        span.set_input({"file": attachment})
        del attachment
    else:
        span.span.set_attribute("gen_ai.input.messages", value or "")
        value = None
    trace_id = span.trace_id
meter.sample()
flushed = svc.force_flush(600_000)
growth = meter.stop()
status = svc.export_status
svc.shutdown()
print(
    json.dumps(
        {
            "flushed": flushed,
            "growth": growth,
            "trace_id": trace_id,
            "accepted": status.accepted_spans,
            "uploaded": status.uploaded_values,
            "fallbacks": status.upload_fallbacks,
            "issues": [issue.message for issue in status.issues],
            **expected,
        }
    )
)
