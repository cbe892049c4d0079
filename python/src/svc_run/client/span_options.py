"""Validation of the span options (the spec's "Span options")."""

from __future__ import annotations

from collections.abc import Mapping

from opentelemetry.context import Context
from opentelemetry.trace import SpanKind

from ..errors.invalid_option_error import InvalidOptionError
from ..media.scan.json.js_text import JS_WHITESPACE, is_well_formed, js_trim, utf16_length
from ..options.describe import describe

MAX_ID_LENGTH = 4096
"""Longest session or user ID, in UTF-16 code units (characters of the spec)."""


def _check_identity(name: str, value: object) -> None:
    if value is None:
        return
    if not isinstance(value, str) or value == "" or utf16_length(value) > MAX_ID_LENGTH or not is_well_formed(value):
        shown = f"a string of {utf16_length(value)} characters" if isinstance(value, str) else describe(value)
        raise InvalidOptionError(f"{name} must be 1 to {MAX_ID_LENGTH} well-formed characters; got {shown}")


def validate_span_options(
    name: object,
    kind: object,
    attributes: object,
    session_id: object,
    user_id: object,
    parent_context: object,
    what: str = "span",
) -> None:
    """Validates span arguments.

    Raises:
        InvalidOptionError: naming the option, the bad value and the rule.
    """
    if type(name) is not str or (
        (not name or name[0] in JS_WHITESPACE or name[-1] in JS_WHITESPACE) and js_trim(name) == ""
    ):
        raise InvalidOptionError(f"{what} name must be a nonblank string; got {describe(name)}")
    if type(kind) is not SpanKind:
        raise InvalidOptionError(f"kind must be an opentelemetry.trace.SpanKind; got {describe(kind)}")
    if attributes is not None and type(attributes) is not dict and not isinstance(attributes, Mapping):
        raise InvalidOptionError(
            f"attributes must be a mapping of OpenTelemetry attributes; got {describe(attributes)}"
        )
    _check_identity("session_id", session_id)
    _check_identity("user_id", user_id)
    if parent_context is not None and not isinstance(parent_context, Context):
        raise InvalidOptionError(
            f"parent_context must be an opentelemetry.context.Context; got {describe(parent_context)}"
        )
