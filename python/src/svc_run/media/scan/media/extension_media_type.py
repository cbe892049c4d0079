"""Media types of common file name extensions, for parts that name a file but give no type."""

from __future__ import annotations

_BY_EXTENSION: dict[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "heic": "image/heic",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "html": "text/html",
    "htm": "text/html",
    "json": "application/json",
    "xml": "application/xml",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
    "flac": "audio/flac",
    "ogg": "audio/ogg",
    "m4a": "audio/mp4",
    "aac": "audio/aac",
    "mp4": "video/mp4",
    "mov": "video/quicktime",
    "webm": "video/webm",
    "zip": "application/zip",
}


def media_type_of_file_name(name: str | None) -> str | None:
    """The media type of ``name``'s extension (ASCII case-insensitive), or ``None``."""
    if name is None:
        return None
    dot = name.rfind(".")
    if dot < 0 or dot == len(name) - 1:
        return None
    extension = name[dot + 1 :]
    if not extension.isascii():
        return None
    return _BY_EXTENSION.get(extension.lower())
