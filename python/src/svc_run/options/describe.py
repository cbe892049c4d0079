"""How a bad value is shown in a validation message: never whole when long, never a secret."""

from __future__ import annotations

import math

from ..media.scan.json.js_text import json_string, utf16_length

_MAX_SHOWN_STRING = 80
_SHOWN_STRING_PREFIX = 60


def type_name(value: object) -> str:
    """The kind of a value, without the value itself (``an empty string``, ``None``, ``an int``)."""
    if value is None:
        return "None"
    if isinstance(value, str) and value == "":
        return "an empty string"
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article} {name}"


def describe(value: object) -> str:
    """A value as shown in messages: strings quoted (shortened when long), literals, else its type."""
    if isinstance(value, str):
        if utf16_length(value) <= _MAX_SHOWN_STRING:
            return json_string(value)
        return f"{json_string(value[:_SHOWN_STRING_PREFIX])}… ({len(value)} characters)"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return repr(value)
        return repr(value)
    return type_name(value)
