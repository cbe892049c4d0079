"""``create_media_reader``: reads recorded files back from the service (``svc.media``).

Reading files needs a Read or Read and write key (snapshot copies a Read and write key): with a
Tracing key every read fails with ``MediaFetchError`` reason ``forbidden``.

Example:
    >>> media = create_media_reader(api_key=read_key, base_url=origin)
    >>> data = media.fetch(trace_id=trace_id, sha256=sha256)
    >>> result = media.resolve(messages_json, trace_id=trace_id, blobs=span_blobs, attribute="gen_ai.input.messages")
"""

from __future__ import annotations

from ...http.http_client import HttpClient
from ...options.svc_options import ServiceEndpoint
from ...options.validate_options import validate_api_key, validate_base_url, validate_timeout_millis
from .fetch_options import resolve_read_target, validate_sha256
from .read_file import read_file
from .resolve_media import MediaResolveResult, resolve_media


class MediaReader:
    """Reads recorded files back: ``svc.media``."""

    def __init__(self, endpoint: ServiceEndpoint, http: HttpClient | None = None) -> None:
        self._endpoint = endpoint
        self._http = http or HttpClient(max_connections=4)

    def __repr__(self) -> str:
        return f"MediaReader(base_url={self._endpoint.base_url!r})"

    def fetch(
        self,
        *,
        sha256: str,
        trace_id: str | None = None,
        snapshot_id: str | None = None,
        span_id: str | None = None,
        max_bytes: int | None = None,
    ) -> bytes:
        """The bytes of the file ``sha256`` of a trace (or trace snapshot), after checking their SHA-256.

        Args:
            sha256: The file's SHA-256, 64 lowercase hex characters.
            trace_id: The trace: its 32-hex OpenTelemetry trace ID, or the service trace ID (a UUID).
            snapshot_id: An evaluation trace snapshot instead of a trace (Read and write key).
            span_id: The span recording the file: faster, and finds a file held inline by a log record.
            max_bytes: Largest file read, 0 to 1000000000; default 64 MiB.

        Raises:
            InvalidOptionError: for invalid options (before any request).
            MediaFetchError: when the file cannot be read (see its ``reason``).
        """
        digest = validate_sha256(sha256, "sha256")
        target = resolve_read_target(trace_id, snapshot_id, span_id, max_bytes)
        return read_file(self._http, self._endpoint, target, digest).data

    def resolve(
        self,
        value: object,
        *,
        blobs: object,
        trace_id: str | None = None,
        snapshot_id: str | None = None,
        span_id: str | None = None,
        max_bytes: int | None = None,
        as_bytes: bool = False,
        attribute: str | None = None,
    ) -> MediaResolveResult:
        """A new value with every digest-form file that ``blobs`` lists read back and written in place.

        Files are written in their convention's form (a data: URL, or bare base64 where the convention
        holds that), or as ``bytes`` with ``as_bytes=True`` (a value given as JSON text then comes back
        parsed). Each file is read once. Files that cannot be restored stay as recorded and are listed
        in ``failures`` with their JSON pointer and reason; they never make the call fail.

        Args:
            value: A recorded value, or its JSON text.
            blobs: The record's ``svc.blobs`` entries (the attribute's strings, or parsed mappings).
            trace_id: The trace, or ``snapshot_id`` for an evaluation trace snapshot.
            snapshot_id: An evaluation trace snapshot instead of a trace.
            span_id: The span that recorded the value.
            max_bytes: Largest file read; default 64 MiB.
            as_bytes: Write ``bytes`` in place of each part.
            attribute: The attribute the value was read from: a value kept as the 16 KiB prefix of a
                value uploaded whole is replaced by the whole value first.

        Raises:
            InvalidOptionError: for invalid options.
        """
        target = resolve_read_target(trace_id, snapshot_id, span_id, max_bytes)
        return resolve_media(self._http, self._endpoint, value, target, blobs, as_bytes, attribute)


def create_media_reader(*, api_key: str, base_url: str | None = None, timeout_millis: int | None = None) -> MediaReader:
    """Creates a media reader on the service at ``base_url`` with a Read or Read and write key.

    Raises:
        InvalidOptionError: naming the option, the value and the rule when an option is invalid.
    """
    return MediaReader(
        ServiceEndpoint(validate_base_url(base_url), validate_api_key(api_key), validate_timeout_millis(timeout_millis))
    )
