"""The recognizers, in the order they are tried on each object; the first that matches wins."""

from __future__ import annotations

from .ai_sdk import AI_SDK
from .anthropic import ANTHROPIC
from .bedrock import BEDROCK
from .gemini import GEMINI
from .genai_parts import GENAI_PARTS
from .langchain import LANGCHAIN
from .mcp import MCP
from .openai_chat import OPENAI_CHAT
from .openai_responses import OPENAI_RESPONSES
from .recognizer import Absent, N, NodeReader, Recognizer

RECOGNIZERS: tuple[Recognizer, ...] = (
    GENAI_PARTS,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    ANTHROPIC,
    GEMINI,
    BEDROCK,
    MCP,
    LANGCHAIN,
    AI_SDK,
)

_NONE: tuple[Recognizer, ...] = ()
_BY_TYPE: dict[str, tuple[Recognizer, ...]] = {}
for _recognizer in RECOGNIZERS:
    for _type in _recognizer.types:
        _BY_TYPE[_type] = (*_BY_TYPE.get(_type, ()), _recognizer)

UNTYPED_RECOGNIZERS: tuple[Recognizer, ...] = tuple(r for r in RECOGNIZERS if r.untyped_keys is not None)
"""The recognizers of parts without a ``type`` member."""

UNTYPED_PART_KEYS: tuple[str, ...] = tuple(
    dict.fromkeys(key for r in UNTYPED_RECOGNIZERS for key in (r.untyped_keys or ()))
)
"""The members one of which a part without ``type`` must have for :data:`UNTYPED_RECOGNIZERS`."""

RECOGNIZED_TYPES: tuple[str, ...] = tuple(_BY_TYPE)
"""Every ``type`` value some recognizer matches."""


def recognizers_for_type(type_: str) -> tuple[Recognizer, ...]:
    """The recognizers of parts whose ``type`` is ``type_``."""
    return _BY_TYPE.get(type_, _NONE)


def candidate_recognizers(part: N, reader: NodeReader[N]) -> tuple[str | None, tuple[Recognizer, ...]]:
    """The ``type`` of ``part`` and the recognizers that may match it."""
    type_member = reader.member(part, "type")
    if not isinstance(type_member, Absent):
        type_ = reader.string(type_member)
        return type_, (_NONE if type_ is None else _BY_TYPE.get(type_, _NONE))
    for key in UNTYPED_PART_KEYS:
        if not isinstance(reader.member(part, key), Absent):
            return None, UNTYPED_RECOGNIZERS
    return None, _NONE
