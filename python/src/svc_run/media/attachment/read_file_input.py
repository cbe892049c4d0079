"""Reads the bytes of an attachment or a recorded file at creation.

Exactly one of ``data`` (bytes, base64 or a ``data:`` URL, at most 25 MiB) or ``path`` (a regular
file of at most 1 GB). A file of at most 25 MiB is read into memory; a larger one is hashed from
disk with one 1 MiB buffer and streamed from disk at upload (it must stay unchanged until then).
Never raises.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from ..media_types import MAX_DATA_BYTES, MAX_FILE_BYTES, SLICE_BYTES, BytesSource, FileSource, PathSource
from .decode_data import DecodedData, decode_data


@dataclass(frozen=True)
class ReadFile:
    """The bytes read, hashed."""

    sha256: str
    size: int
    source: FileSource
    declared_type: str | None


@dataclass(frozen=True)
class ReadProblem:
    """Why the bytes could not be read (never names the file or shows the data)."""

    problem: str


def _hash_file(path: str, size: int, mtime_ns: int) -> str | None:
    try:
        with open(path, "rb", buffering=0) as handle:
            digest = hashlib.sha256()
            buffer = bytearray(SLICE_BYTES)
            view = memoryview(buffer)
            total = 0
            while True:
                read = handle.readinto(buffer)
                if not read:
                    break
                total += read
                digest.update(view[:read])
            after = os.fstat(handle.fileno())
    except OSError:
        return None
    if total != size or after.st_size != size or after.st_mtime_ns != mtime_ns:
        return None
    return digest.hexdigest()


def _read_path(path: str, what: str) -> ReadFile | ReadProblem:
    absolute = os.path.abspath(path)
    try:
        stat = os.stat(absolute)
    except OSError:
        return ReadProblem(f"the {what} file could not be read")
    if not os.path.isfile(absolute):
        return ReadProblem(f"the {what} path is not a regular file")
    if stat.st_size > MAX_FILE_BYTES:
        return ReadProblem(f"the {what} file is over 1 GB")
    if stat.st_size <= MAX_DATA_BYTES:
        try:
            with open(absolute, "rb") as handle:
                data = handle.read(MAX_DATA_BYTES + 1)
        except OSError:
            return ReadProblem(f"the {what} file could not be read")
        if len(data) > MAX_DATA_BYTES:
            return ReadProblem(f"the {what} file changed while it was read")
        return ReadFile(hashlib.sha256(data).hexdigest(), len(data), BytesSource(data), None)
    digest = _hash_file(absolute, stat.st_size, stat.st_mtime_ns)
    if digest is None:
        return ReadProblem(f"the {what} file could not be read, or changed while it was read")
    return ReadFile(digest, stat.st_size, PathSource(absolute, stat.st_size, stat.st_mtime_ns), None)


def read_file_input(data: object, path: object, what: str) -> ReadFile | ReadProblem:
    """Reads ``data`` or ``path`` for an attachment or a recorded file (``what`` names it)."""
    if (data is None) == (path is None):
        return ReadProblem(f"{what} needs exactly one of data or path")
    if path is not None:
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if not isinstance(path, str) or path == "":
            return ReadProblem(f"the {what} path must be a nonempty string or path")
        return _read_path(path, what)
    decoded = decode_data(data, MAX_DATA_BYTES)
    if not isinstance(decoded, DecodedData):
        if decoded.problem == "too-large":
            return ReadProblem(f"the {what} data is over 25 MiB")
        return ReadProblem(f"the {what} data is not bytes, base64 or a data: URL")
    return ReadFile(
        hashlib.sha256(decoded.data).hexdigest(), len(decoded.data), BytesSource(decoded.data), decoded.declared_type
    )
