"""What a recognizer is.

One module per message convention maps a part of that convention to where its bytes are (the
holder object, the byte field, how the bytes are written), its media type and name, and back: from
the part's digest form to where the bytes go when restored. Recognizers read parts through a
:class:`NodeReader`, so the same code serves recorded JSON text (the scanner edits it at positions)
and structured values (log bodies, parsed values the reader resolves).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, TypeVar

from ...media_types import Modality

N = TypeVar("N")

NodeKind: TypeAlias = Literal["object", "array", "string", "bytes", "other"]


class Absent:
    """The answer of :meth:`NodeReader.member` for a member that is not there."""

    __slots__ = ()


ABSENT = Absent()


class NodeReader(Protocol[N]):
    """Read access to one recorded value, as positioned JSON text or as parsed Python values."""

    def member(self, node: N, key: str) -> N | Absent:
        """Member ``key`` of ``node`` when ``node`` is an object holding it."""
        ...

    def string(self, node: N) -> str | None:
        """The value of ``node`` when it is a string of at most 1024 UTF-16 code units."""
        ...

    def kind(self, node: N) -> NodeKind:
        """What ``node`` is; ``bytes`` only for structured values."""
        ...


PayloadEncoding: TypeAlias = Literal["data-url", "base64", "binary", "blob-content"]
"""How the bytes are written in the byte field.

- ``data-url``: a data: URL only (URL fields such as OpenAI ``image_url.url``);
- ``base64``: bare base64 or a data: URL;
- ``binary``: bare base64, a data: URL, a JSON array of byte numbers, or bytes;
- ``blob-content``: bare base64, a data: URL, or text when the media type is textual.
"""

RestoreForm: TypeAlias = Literal["data-url", "base64"]


@dataclass(frozen=True)
class PartMatch:
    """A part that holds a file inline."""

    form: str
    holder_path: tuple[str, ...]
    field: str
    encoding: PayloadEncoding
    media_type: str | None = None
    modality: Modality | None = None
    name: str | None = None
    fallback_media_type: str | None = None


@dataclass(frozen=True)
class DigestMatch:
    """A part in digest form."""

    form: str
    holder_path: tuple[str, ...]
    field: str
    restore_as: RestoreForm
    media_type: str | None = None
    keeps_prefix: bool = False


class Recognizer(ABC):
    """One message convention.

    The scanner offers a recognizer only the objects it can match: those whose string ``type``
    member is one of its :attr:`types`, or, for conventions whose parts have no ``type``, objects
    without a ``type`` member holding one of its :attr:`untyped_keys`.
    """

    convention: str = ""
    types: tuple[str, ...] = ()
    untyped_keys: tuple[str, ...] | None = None

    @abstractmethod
    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        """``part`` holds a file inline in this convention; ``type_`` is its ``type`` member."""

    @abstractmethod
    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        """``part`` (a parsed value) is this convention's digest form."""

    def reference_members(self, part: N, reader: NodeReader[N], type_: str | None) -> tuple[str, ...] | None:
        """Members of ``part`` that are references, never read as files."""
        return None


def member_string(reader: NodeReader[N], node: N, key: str) -> str | None:
    """The string member ``key`` of ``node``."""
    member = reader.member(node, key)
    return None if isinstance(member, Absent) else reader.string(member)


def member_object(reader: NodeReader[N], node: N, key: str) -> N | None:
    """The object member ``key`` of ``node``."""
    member = reader.member(node, key)
    if isinstance(member, Absent) or reader.kind(member) != "object":
        return None
    return member


def has_string(reader: NodeReader[N], node: N, key: str) -> bool:
    """True when ``node`` has member ``key`` holding a string."""
    member = reader.member(node, key)
    return not isinstance(member, Absent) and reader.kind(member) == "string"


def object_at(reader: NodeReader[N], part: N, path: tuple[str, ...]) -> N | None:
    """The object at ``path`` below ``part`` (``part`` itself for ``()``)."""
    node: N | None = part
    for name in path:
        if node is None:
            return None
        node = member_object(reader, node, name)
    return node


def is_digest_at(
    reader: NodeReader[N], part: N, holder_path: tuple[str, ...], field: str, prefix_field: bool = False
) -> bool:
    """True when the object at ``holder_path`` is in digest form for ``field``.

    It has ``sha256`` and ``size`` and no ``field`` (or, with ``prefix_field``, ``field`` holding a
    string).
    """
    holder = object_at(reader, part, holder_path)
    if holder is None:
        return False
    if isinstance(reader.member(holder, "sha256"), Absent) or isinstance(reader.member(holder, "size"), Absent):
        return False
    byte_field = reader.member(holder, field)
    return isinstance(byte_field, Absent) or (prefix_field and reader.kind(byte_field) == "string")


def modality_name(value: str | None) -> Modality | None:
    """The modality a part names, when it is one the spec knows."""
    if value == "image":
        return "image"
    if value == "audio":
        return "audio"
    if value == "video":
        return "video"
    if value == "document":
        return "document"
    return None
