"""``svc.model(...)``: a model-call span in the GenAI semantic-convention form.

A ``{operation} {model}`` CLIENT span with the operation, provider, request and response model,
usage when given (never estimated), and input and output messages when content capture is on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from opentelemetry.util.types import AttributeValue

from ..errors.invalid_option_error import InvalidOptionError
from ..media.scan.json.js_text import js_trim
from ..options.describe import describe
from .attribute_names import ATTR_OUTPUT_MESSAGES
from .helper_content import UNSET
from .span_handle import SpanHandle
from .span_scope import SpanScope

if TYPE_CHECKING:
    from .span_owner import SpanOwner

_USAGE_ATTRIBUTES = {
    "input_tokens": "gen_ai.usage.input_tokens",
    "output_tokens": "gen_ai.usage.output_tokens",
    "cache_read_input_tokens": "gen_ai.usage.cache_read.input_tokens",
    "cache_creation_input_tokens": "gen_ai.usage.cache_creation.input_tokens",
}


def validate_model_call(provider: object, model: object, operation: object) -> None:
    """Validates ``svc.model`` options; raises InvalidOptionError naming the option and value."""
    for name, value in (("provider", provider), ("model", model), ("operation", operation)):
        if not isinstance(value, str) or js_trim(value) == "":
            raise InvalidOptionError(f"{name} must be a nonblank string; got {describe(value)}")


def response_attributes(
    model: str | None,
    response_id: str | None,
    finish_reasons: Sequence[str] | None,
    usage: Mapping[str, object] | None,
) -> dict[str, AttributeValue]:
    """The non-content attributes of a response (usage only as given, never estimated)."""
    attributes: dict[str, AttributeValue] = {}
    if isinstance(model, str):
        attributes["gen_ai.response.model"] = model
    if isinstance(response_id, str):
        attributes["gen_ai.response.id"] = response_id
    if finish_reasons is not None and not isinstance(finish_reasons, str):
        reasons = [reason for reason in finish_reasons if isinstance(reason, str)]
        attributes["gen_ai.response.finish_reasons"] = reasons
    for field, name in _USAGE_ATTRIBUTES.items():
        value = (usage or {}).get(field)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            attributes[name] = value
    return attributes


class ModelCallHandle(SpanHandle):
    """The handle of a model call: a span handle with :meth:`set_response`."""

    __slots__ = ()

    def set_response(
        self,
        *,
        model: str | None = None,
        id: str | None = None,
        finish_reasons: Sequence[str] | None = None,
        output: object = UNSET,
        usage: Mapping[str, object] | None = None,
    ) -> None:
        """Records the response: model, ID, finish reasons, usage given, and output messages.

        Args:
            model: ``gen_ai.response.model``.
            id: ``gen_ai.response.id``.
            finish_reasons: ``gen_ai.response.finish_reasons``.
            output: Output messages (GenAI format); content, recorded when capture is on.
            usage: Token counts reported by the provider (``input_tokens``, ``output_tokens``,
                ``cache_read_input_tokens``, ``cache_creation_input_tokens``); never estimated.
        """
        self.span.set_attributes(response_attributes(model, id, finish_reasons, usage))
        if output is not UNSET:
            self._owner._set_content(self.span, ATTR_OUTPUT_MESSAGES, None, output, "model output")


class ModelScope:
    """``with svc.model(...) as call:`` (also ``async with``)."""

    def __init__(self, owner: SpanOwner, scope: SpanScope) -> None:
        self._owner = owner
        self._scope = scope

    def __enter__(self) -> ModelCallHandle:
        handle = self._scope.__enter__()
        call = ModelCallHandle(self._owner, handle.span, handle.context)
        return call

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._scope.__exit__(exc_type, exc, traceback)

    async def __aenter__(self) -> ModelCallHandle:
        return self.__enter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.__exit__(exc_type, exc, traceback)

    def __repr__(self) -> str:
        return "ModelScope()"


def model_attributes(provider: str, model: str, operation: str, extra: Mapping[str, Any] | None) -> dict[str, Any]:
    """The request attributes of a model call span."""
    return {
        **(extra or {}),
        "gen_ai.operation.name": operation,
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
    }
