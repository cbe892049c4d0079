"""The MCP server name a tool call went through, read from the server's initialize result."""

from __future__ import annotations

from collections.abc import Mapping


def _name_of(info: object) -> str | None:
    if info is None:
        return None
    name = info.get("name") if isinstance(info, Mapping) else getattr(info, "name", None)
    return name if isinstance(name, str) and name != "" else None


def mcp_server_name(mcp: object) -> str | None:
    """The ``serverInfo.name`` of an MCP client session's initialize result, or ``None``.

    Accepts an ``mcp.ClientSession`` (its ``initialize_result``, or ``server_info``), an
    ``InitializeResult``, or a mapping ``{"serverInfo": {"name": ...}}`` (its JSON form). Never
    raises.
    """
    if mcp is None:
        return None
    try:
        result = getattr(mcp, "initialize_result", None)
        if result is not None:
            name = _name_of(getattr(result, "server_info", None))
            if name is not None:
                return name
        name = _name_of(getattr(mcp, "server_info", None))
        if name is not None:
            return name
        if isinstance(mcp, Mapping):
            return _name_of(mcp.get("serverInfo", mcp.get("server_info")))
    except Exception:
        return None
    return None
