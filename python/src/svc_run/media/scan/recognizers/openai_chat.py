"""OpenAI Chat Completions message parts (``openai`` ``ChatCompletionContentPart``, assistant audio).

- ``{"type": "image_url", "image_url": {"url": "data:…"}}`` (also ``image_url`` as a plain string,
  as LangChain records it): ``url`` removed, ``sha256``/``size`` added in ``image_url``.
- ``{"type": "input_audio", "input_audio": {"data", "format"}}``: ``format`` gives the media type
  (``pcm16`` → ``audio/pcm;rate=24000;channels=1``).
- ``{"type": "file", "file": {"file_data", "filename"}}``: a data: URL or bare base64.
- An assistant message with ``audio: {"data"}``: ``audio.data`` removed, the message carries the
  digest. The format was chosen in the request, so the type comes from the bytes, else ``pcm16``.
"""

from __future__ import annotations

from ..media.pcm_content_type import PCM16_CONTENT_TYPE
from .recognizer import (
    DigestMatch,
    N,
    NodeReader,
    PartMatch,
    Recognizer,
    has_string,
    is_digest_at,
    member_object,
    member_string,
)

OPENAI_AUDIO_FORMATS: dict[str, str] = {
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
    "flac": "audio/flac",
    "opus": "audio/ogg",
    "aac": "audio/aac",
    "pcm16": PCM16_CONTENT_TYPE,
    "pcm": PCM16_CONTENT_TYPE,
}
"""Media types of OpenAI audio ``format`` values."""


def _audio_format(value: str | None) -> str | None:
    if value is None:
        return None
    return OPENAI_AUDIO_FORMATS.get(value.lower())


class OpenAiChat(Recognizer):
    """OpenAI Chat Completions parts and assistant audio."""

    convention = "OpenAI Chat Completions (openai ChatCompletionContentPart, ChatCompletionAssistantMessageParam.audio)"
    types = ("image_url", "input_audio", "file")
    untyped_keys = ("audio",)

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        if type_ == "image_url":
            image = member_object(reader, part, "image_url")
            if image is not None and has_string(reader, image, "url"):
                return PartMatch("openai.image_url", ("image_url",), "url", "data-url")
            if has_string(reader, part, "image_url"):
                return PartMatch("openai.image_url", (), "image_url", "data-url")
            return None
        if type_ == "input_audio":
            audio = member_object(reader, part, "input_audio")
            if audio is None or not has_string(reader, audio, "data"):
                return None
            return PartMatch(
                "openai.input_audio",
                ("input_audio",),
                "data",
                "base64",
                media_type=_audio_format(member_string(reader, audio, "format")),
                modality="audio",
            )
        if type_ == "file":
            file = member_object(reader, part, "file")
            if file is None or not has_string(reader, file, "file_data"):
                return None
            return PartMatch(
                "openai.file", ("file",), "file_data", "base64", name=member_string(reader, file, "filename")
            )
        if type_ is None and member_string(reader, part, "role") == "assistant":
            audio = member_object(reader, part, "audio")
            if audio is None or not has_string(reader, audio, "data"):
                return None
            return PartMatch(
                "openai.assistant_audio",
                ("audio",),
                "data",
                "base64",
                modality="audio",
                fallback_media_type=PCM16_CONTENT_TYPE,
            )
        return None

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        if type_ == "image_url":
            if is_digest_at(reader, part, ("image_url",), "url"):
                return DigestMatch("openai.image_url", ("image_url",), "url", "data-url")
            if is_digest_at(reader, part, (), "image_url"):
                return DigestMatch("openai.image_url", (), "image_url", "data-url")
            return None
        if type_ == "input_audio" and is_digest_at(reader, part, ("input_audio",), "data"):
            audio = member_object(reader, part, "input_audio")
            fmt = None if audio is None else member_string(reader, audio, "format")
            return DigestMatch("openai.input_audio", ("input_audio",), "data", "base64", media_type=_audio_format(fmt))
        if type_ == "file" and is_digest_at(reader, part, ("file",), "file_data"):
            return DigestMatch("openai.file", ("file",), "file_data", "data-url")
        if (
            type_ is None
            and member_string(reader, part, "role") == "assistant"
            and is_digest_at(reader, part, ("audio",), "data")
        ):
            return DigestMatch("openai.assistant_audio", ("audio",), "data", "base64")
        return None


OPENAI_CHAT = OpenAiChat()
