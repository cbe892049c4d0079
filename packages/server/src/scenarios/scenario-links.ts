/**
 * The links the scenario answers carry: a run's page in the viewer, a world's MCP endpoint and its
 * plain HTTP tools.
 * @module
 */

/** The viewer page of a scenario run. */
export function runUrl(origin: string, runId: string): string {
  return `${origin}/scenarios/runs/${runId}`;
}

/** The MCP endpoint (Streamable HTTP) of a world. */
export function worldMcpUrl(origin: string, worldId: string): string {
  return `${origin}/mcp/worlds/${worldId}`;
}

/** The plain HTTP tools of a world (`GET` lists them, `POST …/{name}` calls one). */
export function worldToolsUrl(origin: string, worldId: string): string {
  return `${origin}/api/v1/worlds/${worldId}/tools`;
}
