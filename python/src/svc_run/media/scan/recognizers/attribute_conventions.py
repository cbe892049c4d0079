"""Conventions that decide, per attribute, how a value is read.

- OpenInference: ``input.value`` / ``output.value`` declared ``text/plain`` by ``input.mime_type``
  / ``output.mime_type`` are text, never read for files.
- OpenLLMetry: ``gen_ai.prompt.<n>.content`` and ``gen_ai.completion.<n>.content`` are read only
  when the value is the JSON of a parts list (an array).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..media.media_type import media_type_essence

_DECLARED_TYPE_ATTRIBUTES = {"input.value": "input.mime_type", "output.value": "output.mime_type"}
_INDEXED_CONTENT = re.compile(r"gen_ai\.(?:prompt|completion)\.[0-9]+\.content")


def is_declared_plain_text(name: str, attributes: Mapping[str, object] | None) -> bool:
    """True when ``attributes`` declare the value of attribute ``name`` as ``text/plain``."""
    type_attribute = _DECLARED_TYPE_ATTRIBUTES.get(name)
    if type_attribute is None or attributes is None:
        return False
    return media_type_essence(attributes.get(type_attribute)) == "text/plain"


def reads_only_parts_lists(name: str) -> bool:
    """True when attribute ``name`` is read only when its JSON is an array of parts (OpenLLMetry)."""
    return _INDEXED_CONTENT.fullmatch(name) is not None
