"""Recorded files (spec "Recorded file"): the ``svc.file`` span event, and maybe an upload.

``svc.file.sha256``, ``svc.file.size``, ``svc.file.media_type``, ``svc.file.role`` (``input``,
``attachment``, ``output``), optional ``svc.file.name``; with ``upload=True`` the file to upload
under the key ``event:svc.file:<sha256>``. Never raises: what cannot be recorded is a problem.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from ..media_types import FoundFile
from ..scan.media.media_type import modality_of
from ..scan.valid_file_name import valid_file_name
from .media_type import normalize_media_type
from .read_file_input import ReadFile, read_file_input

FILE_EVENT = "svc.file"
"""The name of the span event of a recorded file."""
FileRole: TypeAlias = Literal["input", "attachment", "output"]
"""What the work did with a file: read it, received it with the request, or produced it."""
FILE_ROLES: tuple[FileRole, ...] = ("input", "attachment", "output")


def file_event_key(sha256: str) -> str:
    """The ``svc.blobs`` key of a recorded file."""
    return f"event:{FILE_EVENT}:{sha256}"


@dataclass(frozen=True)
class RecordedFile:
    """What to record for a file, and the problems met (warnings)."""

    attributes: dict[str, str | int]
    upload: FoundFile | None
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class NotRecorded:
    """Why nothing could be recorded."""

    problem: str


def recorded_file(
    *,
    role: object,
    media_type: object,
    data: object = None,
    path: str | os.PathLike[str] | None = None,
    name: object = None,
    upload: object = False,
) -> RecordedFile | NotRecorded:
    """Reads and hashes the file (a ``path`` file with bounded memory). Never raises."""
    if role not in FILE_ROLES:
        return NotRecorded("record_file role must be input, attachment or output")
    normalized = normalize_media_type(media_type)
    if normalized is None:
        return NotRecorded("record_file media_type is not a valid media type")
    read = read_file_input(data, path, "recorded file")
    if not isinstance(read, ReadFile):
        return NotRecorded(read.problem)
    problems: list[str] = []
    valid_name: str | None = None
    if name is not None:
        valid_name = valid_file_name(name)
        if valid_name is None:
            problems.append(
                "a recorded file name was omitted: it must be 1 to 256 characters, nonblank, without control characters"
            )
    attributes: dict[str, str | int] = {
        "svc.file.sha256": read.sha256,
        "svc.file.size": read.size,
        "svc.file.media_type": normalized,
        "svc.file.role": str(role),
    }
    if valid_name is not None:
        attributes["svc.file.name"] = valid_name
    found = None
    if upload is True:
        found = FoundFile(
            key=file_event_key(read.sha256),
            sha256=read.sha256,
            size=read.size,
            content_type=normalized,
            modality=modality_of(normalized),
            source=read.source,
            name=valid_name,
        )
    return RecordedFile(attributes, found, problems)
