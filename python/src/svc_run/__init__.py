"""``svc-run``: tracing, media and verification for LLM applications, over OpenTelemetry.

Example:
    >>> import os
    >>> from svc_run import Svc
    >>> svc = Svc(api_key=os.environ["SVC_API_KEY"], service_name="chat-api", capture_content=True)
    >>> with svc.span("chat turn", input={"question": "hi"}, session_id="s-1") as span:
    ...     span.set_output({"answer": "hello"})
    >>> svc.force_flush()
    True
"""

from ._version import SDK_VERSION
from .client.helper_content import UNSET
from .client.model_call import ModelCallHandle, ModelScope
from .client.span_handle import SpanHandle
from .client.span_scope import SpanScope
from .client.svc import Svc
from .client.svc_safe import SafeSvc, create_svc_safe
from .connection.project_connection import ProjectConnection
from .errors import (
    InvalidOptionError,
    MediaFetchError,
    MediaFetchErrorReason,
    SvcConnectionError,
    SvcError,
    SvcExportError,
    SvcTraceVerificationError,
    TraceVerificationErrorCode,
)
from .export.export_status import ExportIssue, ExportStatus
from .export.svc_transport import SvcTransport, create_svc_transport
from .media.attachment.attachment import Attachment
from .media.attachment.recorded_file import FileRole
from .media.read.blob_entries import BlobEntry
from .media.read.fetch_options import DEFAULT_MAX_FILE_BYTES
from .media.read.media_reader import MediaReader, create_media_reader
from .media.read.rehydrate_media import rehydrate_media
from .media.read.resolve_media import MediaResolveFailure, MediaResolveFailureReason, MediaResolveResult
from .options.svc_options import DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MILLIS
from .process.context_propagation import with_current_context
from .verify.trace_receipt import TraceReceipt, TraceVerification

__version__ = SDK_VERSION

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_TIMEOUT_MILLIS",
    "UNSET",
    "Attachment",
    "BlobEntry",
    "ExportIssue",
    "ExportStatus",
    "FileRole",
    "InvalidOptionError",
    "MediaFetchError",
    "MediaFetchErrorReason",
    "MediaReader",
    "MediaResolveFailure",
    "MediaResolveFailureReason",
    "MediaResolveResult",
    "ModelCallHandle",
    "ModelScope",
    "ProjectConnection",
    "SafeSvc",
    "SpanHandle",
    "SpanScope",
    "Svc",
    "SvcConnectionError",
    "SvcError",
    "SvcExportError",
    "SvcTraceVerificationError",
    "SvcTransport",
    "TraceReceipt",
    "TraceVerification",
    "TraceVerificationErrorCode",
    "__version__",
    "create_media_reader",
    "create_svc_safe",
    "create_svc_transport",
    "rehydrate_media",
    "with_current_context",
]
