"""``find_digest_holders``: the parts of a parsed value holding a file in digest form.

For reading files back (``media.resolve``, ``rehydrate_media``): each holder restores its part with
the bytes put back in its convention's form, the inverse of the recognizer that wrote it.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .engine.node_readers import VALUE_READER
from .engine.replace_member import set_at_path
from .json.json_pointer import format_pointer
from .media.pcm_content_type import recorded_content_type
from .recognizers.all_recognizers import candidate_recognizers
from .recognizers.recognizer import DigestMatch, object_at

_SHA256 = re.compile("[0-9a-f]{64}")
_MAX_SEARCH_DEPTH = 64
_MAX_SAFE_INTEGER = 2**53 - 1


@dataclass(frozen=True)
class DigestHolder:
    """A part holding a file in digest form."""

    pointer: str
    """JSON pointer of the part in the value (the object ``restore`` returns a new version of)."""
    key_pointer: str
    """The pointer the part's ``svc.blobs`` key ends with (``/content`` added for a kept prefix)."""
    sha256: str
    size: int
    form: str
    """The convention's part kind, for example ``openai.image_url``, ``genai.blob``."""
    restore: Callable[[bytes, str], dict[str, Any]]
    """The part with the bytes put back (a data: URL or bare base64, as the convention writes them)."""
    content_type: str | None = None
    """The media type the part still declares, when it does."""
    prefix: str | None = None
    """The text prefix kept inline, for text that uploaded."""


def _restore_part(part: dict[str, Any], match: DigestMatch, data: bytes, content_type: str) -> dict[str, Any]:
    holder = object_at(VALUE_READER, part, match.holder_path)
    assert isinstance(holder, dict)
    if match.keeps_prefix:
        encoded = data.decode("utf-8", "replace")
    elif match.restore_as == "data-url":
        encoded = f"data:{content_type};base64,{base64.b64encode(data).decode('ascii')}"
    else:
        encoded = base64.b64encode(data).decode("ascii")
    restored: dict[str, Any] = {}
    for key, value in holder.items():
        if key == "size" or (key == "sha256" and match.keeps_prefix):
            continue
        if key in ("sha256", match.field):
            restored[match.field] = encoded
        else:
            restored[key] = value
    return set_at_path(part, match.holder_path, restored)


def _holder_of(part: dict[str, Any], match: DigestMatch, tokens: list[str | int]) -> DigestHolder | None:
    holder = object_at(VALUE_READER, part, match.holder_path)
    if not isinstance(holder, dict):
        return None
    sha256 = holder.get("sha256")
    size = holder.get("size")
    if not isinstance(sha256, str) or _SHA256.fullmatch(sha256) is None:
        return None
    if isinstance(size, float) and size.is_integer():
        size = int(size)
    if isinstance(size, bool) or not isinstance(size, int) or size < 0 or size > _MAX_SAFE_INTEGER:
        return None
    pointer = format_pointer(tokens)
    prefix = holder.get(match.field) if match.keeps_prefix else None
    content_type = None if match.media_type is None else recorded_content_type(match.media_type)

    def restore(data: bytes, restored_type: str) -> dict[str, Any]:
        return _restore_part(part, match, data, restored_type)

    return DigestHolder(
        pointer=pointer,
        key_pointer=pointer if not isinstance(prefix, str) else f"{pointer}/{match.field}",
        sha256=sha256,
        size=size,
        form=match.form,
        restore=restore,
        content_type=content_type,
        prefix=prefix if isinstance(prefix, str) else None,
    )


def _search(value: object, tokens: list[str | int], found: list[DigestHolder]) -> None:
    if len(tokens) > _MAX_SEARCH_DEPTH:
        return
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            tokens.append(index)
            _search(item, tokens, found)
            tokens.pop()
        return
    if not isinstance(value, dict):
        return
    skip: str | None = None
    type_, recognizers = candidate_recognizers(value, VALUE_READER)
    for recognizer in recognizers:
        match = recognizer.match_digest(value, VALUE_READER, type_)
        if match is None:
            continue
        holder = _holder_of(value, match, tokens)
        if holder is not None:
            found.append(holder)
            skip = match.holder_path[0] if match.holder_path else match.field
        break
    for key, item in value.items():
        if key == skip:
            continue
        tokens.append(key if isinstance(key, str) else str(key))
        _search(item, tokens, found)
        tokens.pop()


def find_digest_holders(value: object) -> list[DigestHolder]:
    """Every part of ``value`` (a parsed value, never mutated) holding a file in digest form.

    In reading order: GenAI blob digest parts (also what a whole data: URL became) and provider
    parts whose byte field was replaced by ``sha256`` and ``size``. Strings holding JSON are not
    searched: parse them and call again. Never raises.
    """
    found: list[DigestHolder] = []
    try:
        _search(value, [], found)
    except Exception:
        return found
    return found
