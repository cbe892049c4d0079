"""``media.resolve``: a recorded value with its files in digest form read back and written in place."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ...errors.invalid_option_error import InvalidOptionError
from ...errors.media_fetch_error import MediaFetchError, MediaFetchErrorReason
from ...http.http_client import HttpClient
from ...options.describe import describe
from ...options.svc_options import ServiceEndpoint
from .blob_entries import BlobEntry, blob_entries_by_sha256
from .digest_locations import LocatedFile, locate_digest_files, replace_files
from .fetch_options import ReadTarget
from .read_file import ReadFileResult, read_file

MediaResolveFailureReason: TypeAlias = MediaFetchErrorReason | Literal["not_listed", "prefix_only"]
"""Why a file was left in digest form: a fetch reason, or ``not_listed`` (the record's ``svc.blobs``
does not list it: refused at export, never uploaded) or ``prefix_only`` (only the inline prefix of a
text file or a value uploaded whole is available)."""

_CONCURRENT_READS = 4


@dataclass(frozen=True)
class MediaResolveFailure:
    """A file ``media.resolve`` left as recorded."""

    pointer: str
    sha256: str
    reason: MediaResolveFailureReason
    inner_pointer: str | None = None


@dataclass(frozen=True)
class MediaResolveResult:
    """A new value (the given one is not modified) and the files left in digest form, in order."""

    value: object
    failures: list[MediaResolveFailure]


def _failure_reason(result: MediaFetchError | None, keeps_prefix: bool) -> MediaResolveFailureReason:
    reason: MediaResolveFailureReason = "not_listed" if result is None else result.reason
    never_stored = reason in ("not_listed", "missing", "not_found")
    return "prefix_only" if never_stored and keeps_prefix else reason


def _read_all(
    http: HttpClient, endpoint: ServiceEndpoint, digests: list[str], target: ReadTarget
) -> dict[str, ReadFileResult | MediaFetchError]:
    def one(sha256: str) -> ReadFileResult | MediaFetchError:
        try:
            return read_file(http, endpoint, target, sha256)
        except MediaFetchError as error:
            return error

    if not digests:
        return {}
    with ThreadPoolExecutor(max_workers=min(_CONCURRENT_READS, len(digests))) as pool:
        return dict(zip(digests, pool.map(one, digests), strict=True))


def resolve_media(
    http: HttpClient,
    endpoint: ServiceEndpoint,
    value: object,
    target: ReadTarget,
    blobs: object,
    as_bytes: object,
    attribute: object,
) -> MediaResolveResult:
    """Reads back every file of ``value`` that ``blobs`` lists (each digest once) and writes it in place.

    Raises:
        InvalidOptionError: for invalid options.
    """
    entries = blob_entries_by_sha256(blobs)
    if not isinstance(as_bytes, bool):
        raise InvalidOptionError(f"as_bytes must be True or False; got {describe(as_bytes)}")
    if attribute is not None and (not isinstance(attribute, str) or attribute == "" or "#" in attribute):
        raise InvalidOptionError(
            "attribute must be the name of the attribute the value was read from (or 'body'), without '#'; "
            f"got {describe(attribute)}"
        )
    failures: list[MediaResolveFailure] = []
    whole: BlobEntry | None = None
    if attribute is not None:
        whole = next((entry for entry in entries.values() if entry.key == f"{attribute}#"), None)
    if whole is not None and isinstance(value, str):
        try:
            value = read_file(http, endpoint, target, whole.sha256).data.decode("utf-8", "replace")
        except MediaFetchError as error:
            failures.append(MediaResolveFailure("", whole.sha256, _failure_reason(error, True)))
    locations = locate_digest_files(value)
    listed = list(dict.fromkeys(f.holder.sha256 for f in locations.files if f.holder.sha256 in entries))
    results = _read_all(http, endpoint, listed, target)

    def replacement(file: LocatedFile) -> object:
        holder = file.holder
        read = results.get(holder.sha256)
        if read is None or isinstance(read, MediaFetchError):
            failures.append(
                MediaResolveFailure(
                    file.pointer,
                    holder.sha256,
                    _failure_reason(read, holder.prefix is not None),
                    file.inner_pointer,
                )
            )
            return None
        if as_bytes and file.inner_pointer is None:
            return read.data
        listed_entry = entries.get(holder.sha256)
        content_type = holder.content_type or (listed_entry.content_type if listed_entry else None) or read.content_type
        return holder.restore(read.data, content_type)

    return MediaResolveResult(replace_files(locations, replacement, parsed=as_bytes), failures)
