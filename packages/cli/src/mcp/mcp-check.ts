/**
 * `svc mcp --check`: connects to the tool server with the official MCP client, lists its tools,
 * and says so; or fails with the reason.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import manifest from '../../package.json' with { type: 'json' };
import type { McpEndpoint } from './mcp-endpoint.js';
import { mcpFailure } from './mcp-failure.js';

/** What the check found. */
export interface McpCheck {
  server: { name: string; version: string };
  tools: string[];
}

/**
 * Connects to `endpoint`, lists the tools and disconnects.
 *
 * @throws Error with the reason when the connection or the listing fails.
 */
export async function checkMcp(endpoint: McpEndpoint): Promise<McpCheck> {
  const client = new Client({ name: 'svc-mcp-check', version: manifest.version });
  const transport = new StreamableHTTPClientTransport(endpoint.url, {
    requestInit: { headers: { authorization: `Bearer ${endpoint.key}` } },
  });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const info = client.getServerVersion();
    return {
      server: { name: info?.name ?? 'unknown', version: info?.version ?? 'unknown' },
      tools: tools.map((tool) => tool.name),
    };
  } catch (error) {
    throw new Error(mcpFailure(error, endpoint.url), { cause: error });
  } finally {
    await client.close().catch(() => undefined);
  }
}
