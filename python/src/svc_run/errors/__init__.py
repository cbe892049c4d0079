"""The errors the SDK raises, named as in the spec."""

from .invalid_option_error import InvalidOptionError
from .media_fetch_error import MediaFetchError, MediaFetchErrorReason
from .svc_connection_error import SvcConnectionError
from .svc_error import SvcError
from .svc_export_error import SvcExportError
from .svc_trace_verification_error import SvcTraceVerificationError, TraceVerificationErrorCode

__all__ = [
    "InvalidOptionError",
    "MediaFetchError",
    "MediaFetchErrorReason",
    "SvcConnectionError",
    "SvcError",
    "SvcExportError",
    "SvcTraceVerificationError",
    "TraceVerificationErrorCode",
]
