"""Raw 16-bit PCM content types (spec "Automatic capture of files", "Limits": raw PCM playback).

``audio/pcm``, ``audio/x-pcm`` and ``audio/L16`` with a whole-number ``rate`` from 8000 to 192000
are listed as ``audio/pcm;rate=<rate>;channels=<n>`` (channels 1 or 2, default 1); without a valid
rate they keep their recorded type and are download only. Provider ``pcm16`` audio is
``audio/pcm;rate=24000;channels=1``.
"""

from __future__ import annotations

import re

from .media_type import media_type_essence, media_type_parameters

PCM16_CONTENT_TYPE = "audio/pcm;rate=24000;channels=1"
"""The content type of provider ``pcm16`` audio."""

_PCM_ESSENCES = frozenset({"audio/pcm", "audio/x-pcm", "audio/l16"})
_MIN_RATE = 8000
_MAX_RATE = 192000
_WHOLE = re.compile(r"[0-9]{1,6}")


def _whole_number(value: str | None) -> int | None:
    if value is None or _WHOLE.fullmatch(value) is None:
        return None
    return int(value)


def is_raw_pcm(essence: str) -> bool:
    """True when ``essence`` is one of the raw PCM media types."""
    return essence in _PCM_ESSENCES


def pcm_content_type(media_type: str) -> str | None:
    """The playable content type of raw PCM with a valid rate and channel count, or ``None``."""
    essence = media_type_essence(media_type)
    if essence is None or not is_raw_pcm(essence):
        return None
    parameters = media_type_parameters(media_type)
    rate = _whole_number(parameters.get("rate"))
    if rate is None or rate < _MIN_RATE or rate > _MAX_RATE:
        return None
    channels_text = parameters.get("channels")
    channels = 1 if channels_text is None else _whole_number(channels_text)
    if channels not in (1, 2):
        return None
    return f"audio/pcm;rate={rate};channels={channels}"


def recorded_content_type(media_type: str) -> str | None:
    """The content type the scanner lists for a recorded media type, or ``None`` for none."""
    essence = media_type_essence(media_type)
    if essence is None:
        return None
    if is_raw_pcm(essence):
        return pcm_content_type(media_type) or essence
    return essence
