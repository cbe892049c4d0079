"""The body of an upload PUT, made from a file's source without a second copy of a large file.

Bytes as they are; UTF-8 text, base64 strings and files on disk in slices of at most 1 MiB. A file
on disk is checked against its recorded size and modification time, and its digest is checked while
streaming: each slice is held back until the next is read, so a file found changed at its end fails
before its last byte is sent and the service never receives a complete wrong body. A per-attempt
deadline is checked between slices.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator

from ...http.http_client import NoAnswerError
from ..media_types import SLICE_BYTES, Base64Source, BytesSource, FoundFile, PathSource, Utf8Source
from ..scan.digest.base64_digest import BASE64_SLICE_UNITS, base64_slices
from ..scan.json.js_text import utf8
from .upload_source_error import UploadSourceError

_UTF8_SLICE_CHARACTERS = SLICE_BYTES // 4
"""Characters encoded per slice (at most 4 bytes each, so at most 1 MiB)."""

UploadBody = bytes | Iterator[bytes | memoryview]


def _check_deadline(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise NoAnswerError("timeout", "timeout")


def _utf8_slices(text: str, size: int, deadline: float) -> Iterator[bytes]:
    total = 0
    for at in range(0, len(text), _UTF8_SLICE_CHARACTERS):
        _check_deadline(deadline)
        encoded = utf8(text[at : at + _UTF8_SLICE_CHARACTERS])
        total += len(encoded)
        if total > size:
            raise UploadSourceError("changed")
        yield encoded
    if total != size:
        raise UploadSourceError("changed")


def _base64_slices(source: Base64Source, size: int, deadline: float) -> Iterator[bytes]:
    total = 0
    try:
        for decoded in base64_slices(source.text, source.start, source.end):
            _check_deadline(deadline)
            total += len(decoded)
            if total > size:
                raise UploadSourceError("changed")
            yield decoded
    except ValueError:
        raise UploadSourceError("changed") from None
    if total != size:
        raise UploadSourceError("changed")


def file_state(path: str) -> tuple[int, int] | None:
    """The size and modification time (ns) of a regular file, or ``None`` when unreadable."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def _file_slices(file: FoundFile, source: PathSource, deadline: float) -> Iterator[memoryview]:
    try:
        handle = open(source.path, "rb", buffering=0)  # noqa: SIM115 - closed in finally
    except OSError:
        raise UploadSourceError("unreadable") from None
    try:
        stat = os.fstat(handle.fileno())
        if stat.st_size != source.size or stat.st_mtime_ns != source.mtime_ns:
            raise UploadSourceError("changed")
        buffers = (bytearray(SLICE_BYTES), bytearray(SLICE_BYTES))
        digest = hashlib.sha256()
        total = 0
        turn = 0
        held: memoryview | None = None
        while True:
            _check_deadline(deadline)
            buffer = buffers[turn & 1]
            turn += 1
            try:
                read = handle.readinto(buffer)
            except OSError:
                raise UploadSourceError("unreadable") from None
            if not read:
                break
            total += read
            if total > source.size:
                raise UploadSourceError("changed")
            piece = memoryview(buffer)[:read]
            digest.update(piece)
            if held is not None:
                yield held
            held = piece
        if total != source.size or digest.hexdigest() != file.sha256:
            raise UploadSourceError("changed")
        if held is not None:
            yield held
    finally:
        handle.close()


def upload_body(file: FoundFile, deadline: float) -> UploadBody:
    """A fresh PUT body for ``file`` (one per attempt); a sliced body raises UploadSourceError."""
    source = file.source
    if isinstance(source, BytesSource):
        return source.data
    if isinstance(source, Utf8Source):
        if len(source.text) <= _UTF8_SLICE_CHARACTERS:
            return utf8(source.text)
        return _utf8_slices(source.text, file.size, deadline)
    if isinstance(source, Base64Source):
        if source.end - source.start <= BASE64_SLICE_UNITS:
            try:
                return b"".join(base64_slices(source.text, source.start, source.end))
            except ValueError:
                raise UploadSourceError("changed") from None
        return _base64_slices(source, file.size, deadline)
    return _file_slices(file, source, deadline)
