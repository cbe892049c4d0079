"""``Attachment``: a file placed in a recorded value, recorded in digest form.

Placed in a span's input or output, tool arguments or results, model messages or
``log_inference`` values, it is recorded as a GenAI blob part (SHA-256, size, media type, modality
and name) and its bytes upload with the record. Creation never raises: an attachment without
exactly one of ``data``/``path``, with unreadable or oversized data, or with an invalid content
type is recorded as ``None``; an invalid name alone is omitted. Each problem is kept on the
attachment (``problem``, ``name_problem``) and raised as a ``warning`` export issue when the
attachment is placed in a value a client records (the count of instrumentation failures).
"""

from __future__ import annotations

import os
import threading

from ..media_types import FileSource, FoundFile, Modality
from ..scan.media.media_type import modality_of
from ..scan.valid_file_name import valid_file_name
from .media_type import normalize_media_type
from .read_file_input import ReadFile, read_file_input


class _Created:
    """How many attachments were ever created: zero lets serializers skip looking for them."""

    lock = threading.Lock()
    count = 0


def attachments_created() -> int:
    """How many attachments were ever created: zero lets serializers skip looking for them."""
    return _Created.count


class Attachment:
    """A file to record in digest form.

    Example:
        >>> scan = Attachment(path="./scan.pdf", content_type="application/pdf", name="scan.pdf")
        >>> with svc.span("read document", input={"document": scan}):
        ...     ...
    """

    __slots__ = ("_part", "_source", "content_type", "name", "name_problem", "problem", "sha256", "size")

    def __init__(
        self,
        *,
        data: bytes | bytearray | memoryview | str | None = None,
        path: str | os.PathLike[str] | None = None,
        content_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Reads and hashes the bytes (a ``path`` file with bounded memory). Never raises.

        Args:
            data: Bytes, a base64 string or a ``data:`` URL; at most 25 MiB decoded.
            path: A regular file of at most 1 GB; it must stay unchanged until it uploads.
            content_type: The media type, e.g. ``image/png``; may be left out when ``data`` is a
                ``data:`` URL declaring one (given, it wins over the URL's).
            name: A file name: 1 to 256 characters, nonblank, no control characters.
        """
        with _Created.lock:
            _Created.count += 1
        self.sha256: str | None = None
        """SHA-256 of the bytes (64 lowercase hex); ``None`` when the attachment is invalid."""
        self.size: int | None = None
        """Size in bytes; ``None`` when invalid."""
        self.content_type: str | None = None
        """The normalized media type; ``None`` when invalid."""
        self.name: str | None = None
        """The file name, when one was given and is valid."""
        self.problem: str | None = None
        """Why the attachment is recorded as ``None``, or ``None`` when it is valid."""
        self.name_problem: str | None = None
        """Why the given name was omitted, or ``None``."""
        self._source: FileSource | None = None
        self._part: dict[str, object] | None = None
        if name is not None:
            self.name = valid_file_name(name)
            if self.name is None:
                self.name_problem = (
                    "an attachment name was omitted: it must be 1 to 256 characters, nonblank, "
                    "without control characters"
                )
        read = read_file_input(data, path, "attachment")
        if not isinstance(read, ReadFile):
            self.problem = read.problem
            return
        media_type = normalize_media_type(content_type if content_type is not None else read.declared_type)
        if media_type is None:
            self.problem = (
                "the attachment has no content type"
                if content_type is None and read.declared_type is None
                else "the attachment content type is not a valid media type"
            )
            return
        self.sha256 = read.sha256
        self.size = read.size
        self.content_type = media_type
        self._source = read.source
        modality: Modality = modality_of(media_type)
        part: dict[str, object] = {
            "type": "blob",
            "mime_type": media_type,
            "modality": modality,
            "sha256": read.sha256,
            "size": read.size,
        }
        if self.name is not None:
            part["name"] = self.name
        self._part = part

    @property
    def valid(self) -> bool:
        """Whether the attachment is recorded in digest form (else as ``None``)."""
        return self.problem is None

    def to_json(self) -> dict[str, object] | None:
        """The digest form recorded in place of the attachment, or ``None`` when it is invalid."""
        return None if self._part is None else dict(self._part)

    def found_file(self, key: str) -> FoundFile | None:
        """The file of a valid attachment placed at ``key``, for upload (internal)."""
        if self._part is None or self._source is None or self.sha256 is None or self.size is None:
            return None
        assert self.content_type is not None
        return FoundFile(
            key=key,
            sha256=self.sha256,
            size=self.size,
            content_type=self.content_type,
            modality=modality_of(self.content_type),
            source=self._source,
            name=self.name,
        )

    def __repr__(self) -> str:
        if self.problem is not None:
            return f"Attachment(invalid: {self.problem})"
        return f"Attachment(content_type={self.content_type!r}, size={self.size}, sha256={self.sha256!r})"
