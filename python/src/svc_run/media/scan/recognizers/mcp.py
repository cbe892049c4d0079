"""MCP tool results (``CallToolResult`` content: image, audio, embedded blob resources).

- ``{"type": "image" | "audio", "data", "mimeType"}``: ``data`` removed, ``sha256``/``size`` added.
- ``{"type": "resource", "resource": {"uri", "mimeType"?, "blob"}}``: ``blob`` removed,
  ``sha256``/``size`` added in ``resource``; the name is the last segment of the URI. A resource
  with ``text`` stays text; ``resource_link`` is a reference.
"""

from __future__ import annotations

from ..media.data_url import decode_uri_component
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


def last_uri_segment(uri: str | None) -> str | None:
    """The last path segment of ``uri`` (query and fragment dropped, percent-decoded), if any."""
    if uri is None:
        return None
    end = len(uri)
    query = uri.find("?")
    if query >= 0:
        end = query
    fragment = uri.find("#")
    if 0 <= fragment < end:
        end = fragment
    path = uri[:end]
    segment = path[path.rfind("/") + 1 :]
    if segment == "" or ":" in segment:
        return None
    decoded = decode_uri_component(segment)
    return segment if decoded is None else decoded


class Mcp(Recognizer):
    """MCP tool result content."""

    convention = "MCP tool results (@modelcontextprotocol/sdk CallToolResult content)"
    types = ("image", "audio", "resource")

    def match(self, part: N, reader: NodeReader[N], type_: str | None) -> PartMatch | None:
        if type_ in ("image", "audio") and has_string(reader, part, "mimeType"):
            if not has_string(reader, part, "data"):
                return None
            return PartMatch(
                f"mcp.{type_}",
                (),
                "data",
                "base64",
                media_type=member_string(reader, part, "mimeType"),
                modality="image" if type_ == "image" else "audio",
            )
        if type_ == "resource":
            resource = member_object(reader, part, "resource")
            if resource is None or not has_string(reader, resource, "blob"):
                return None
            return PartMatch(
                "mcp.resource",
                ("resource",),
                "blob",
                "base64",
                media_type=member_string(reader, resource, "mimeType"),
                name=last_uri_segment(member_string(reader, resource, "uri")),
            )
        return None

    def match_digest(self, part: N, reader: NodeReader[N], type_: str | None) -> DigestMatch | None:
        if type_ in ("image", "audio") and has_string(reader, part, "mimeType"):
            if not is_digest_at(reader, part, (), "data"):
                return None
            return DigestMatch(f"mcp.{type_}", (), "data", "base64", media_type=member_string(reader, part, "mimeType"))
        if type_ == "resource" and is_digest_at(reader, part, ("resource",), "blob"):
            resource = member_object(reader, part, "resource")
            return DigestMatch(
                "mcp.resource",
                ("resource",),
                "blob",
                "base64",
                media_type=None if resource is None else member_string(reader, resource, "mimeType"),
            )
        return None


MCP = Mcp()
