"""``rehydrate_media``: writes an evaluation case's files back into its recorded messages by SHA-256.

No network call is made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from ...errors.invalid_option_error import InvalidOptionError
from ...options.describe import describe
from ..attachment.decode_data import DecodedData, decode_data
from .digest_locations import locate_digest_files, replace_files
from .fetch_options import validate_sha256


def _case_file(file: object, at: str) -> tuple[str, bytes, str]:
    if not isinstance(file, Mapping):
        raise InvalidOptionError(
            f"{at} must be a mapping {{sha256?, content_type, bytes | data}}; got {describe(file)}"
        )
    data_bytes = file.get("bytes")
    data = file.get("data")
    content_type = file.get("content_type", file.get("contentType"))
    sha256 = file.get("sha256")
    if (data_bytes is None) == (data is None):
        raise InvalidOptionError(f"{at} must have exactly one of bytes and data")
    declared: str | None = None
    if data_bytes is not None:
        if not isinstance(data_bytes, (bytes, bytearray, memoryview)):
            raise InvalidOptionError(f"{at}.bytes must be bytes; got {describe(data_bytes)}")
        raw = bytes(data_bytes)
    else:
        if not isinstance(data, str):
            raise InvalidOptionError(f"{at}.data must be a base64 string or a data: URL; got {describe(data)}")
        decoded = decode_data(data, float("inf"))
        if not isinstance(decoded, DecodedData):
            # The value is the caller's file: it is never shown.
            raise InvalidOptionError(
                f"{at}.data must be base64 or a data: URL declaring a media type; got another string"
            )
        raw = decoded.data
        declared = decoded.declared_type
    media_type = content_type if content_type is not None else declared
    if not isinstance(media_type, str) or media_type.strip() == "":
        raise InvalidOptionError(
            f"{at}.content_type must be a nonempty media type string; got {describe(content_type)}"
        )
    digest = hashlib.sha256(raw).hexdigest()
    if sha256 is not None and validate_sha256(sha256, f"{at}.sha256") != digest:
        raise InvalidOptionError(
            f"{at}.sha256 is not the SHA-256 of its bytes (leave it out to use theirs); got {describe(sha256)}"
        )
    return digest, raw, media_type


def rehydrate_media(inputs: object, files: Sequence[Mapping[str, object]] | object) -> object:
    """Writes a case's files back into ``inputs``, by SHA-256, without any network call.

    Returns a new value equal to ``inputs`` with every digest-form file whose SHA-256 is in
    ``files`` written back in its convention's form (a data: URL, or bare base64 where the
    convention holds that), also inside JSON-encoded strings; other digest parts stay as they are.

    ``inputs`` is not modified; JSON text comes back as JSON text.

    Example:
        >>> messages = rehydrate_media(case["inputs"]["messages"], case["files"])

    Raises:
        InvalidOptionError: ``files`` is not a list of valid files (the message names the item).
    """
    if isinstance(files, (str, bytes)) or not isinstance(files, Sequence):
        raise InvalidOptionError(
            f"files must be a list of {{sha256?, content_type, bytes | data}}; got {describe(files)}"
        )
    by_sha256: dict[str, tuple[bytes, str]] = {}
    for index, file in enumerate(files):
        digest, raw, media_type = _case_file(file, f"files[{index}]")
        by_sha256[digest] = (raw, media_type)
    locations = locate_digest_files(inputs)

    def replacement(located: object) -> object:
        holder = located.holder  # type: ignore[attr-defined]
        found = by_sha256.get(holder.sha256)
        if found is None:
            return None
        return holder.restore(found[0], holder.content_type or found[1])

    return replace_files(locations, replacement)
