/**
 * Test support: a started server (real port) with the official MCP client connected to its `/mcp`
 * with the MCP Read key, and the read API beside it for comparisons. Not part of the package's API.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { type ServerFixture, useServer } from '../../test-support/server-fixture.js';
import { callTool, httpClient } from './mcp-clients.js';

/** A server and a connected MCP client; valid inside tests after `beforeAll`. */
export interface McpFixture {
  readonly fx: ServerFixture;
  readonly client: Client;
  /** Calls `tool` over Streamable HTTP. */
  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** GET of the read API (`path` under `/api/v1`) with the Read key: its JSON answer. */
  readApi<T = unknown>(path: string): Promise<{ status: number; body: T }>;
}

/** Registers `beforeAll`/`afterAll` starting the server and connecting the client. */
export function useMcp(options: Parameters<typeof useServer>[0] = {}): McpFixture {
  const fx = useServer(options);
  let client: Client | undefined;
  beforeAll(async () => {
    client = await httpClient(fx.server.origin, fx.server.keys.mcp);
  });
  afterAll(async () => {
    await client?.close();
  });
  const fixture: McpFixture = {
    fx,
    get client() {
      if (client === undefined) throw new Error('the client connects in beforeAll');
      return client;
    },
    call: (tool, args) => callTool(fixture.client, tool, args),
    async readApi<T>(path: string) {
      const res = await fx.request(`/api/v1${path}`, { key: fx.server.keys.read });
      return { status: res.status, body: (await res.json()) as T };
    },
  };
  return fixture;
}
