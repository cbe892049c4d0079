/**
 * `/mcp/worlds/{worldId}`: a trial's world as an MCP server (the official SDK's Streamable HTTP
 * transport, stateless, JSON answers), for `context.mcp`. Its tools are the scenario's tools, with
 * their JSON Schemas as input schemas; a call is the same call as over plain HTTP (recorded, in
 * order, in the world's transaction). It takes the trial's token only: refusals are JSON-RPC
 * errors with the HTTP status of the REST routes (401, 403), and a project key is refused (403).
 * The low-level `Server` is used because the tools' schemas are the documents' JSON Schemas, not
 * zod schemas.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { KeyRing } from '../../auth/key-ring.js';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { ApiError } from '../../http/api-error.js';
import { jsonRpcError, MCP_FORBIDDEN, MCP_UNAUTHORIZED } from '../../mcp/mcp-access.js';
import type { Scenarios } from '../scenarios.js';
import type { TrialContext } from '../store/trial-store.js';
import { bearerOf, worldTrial } from './world-access.js';

/** The path of a world's MCP endpoint (Hono syntax). */
export const WORLD_MCP_PATH = '/mcp/worlds/:worldId';

/** What the world server says of itself. */
const WORLD_SERVER_INFO = { name: 'svc-world', title: 'svc scenario world', version: '0.4.1' } as const;

function worldServer(scenarios: Scenarios, trial: TrialContext): Server {
  const server = new Server(
    { ...WORLD_SERVER_INFO },
    {
      capabilities: { tools: {} },
      instructions: 'The tools of a simulated world for one trial. Error results say why a call was refused.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: trial.version.publicPart.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    try {
      const result = scenarios.worlds.call(trial.row.id, request.params.name, request.params.arguments ?? {});
      return result.isError
        ? { isError: true, content: [{ type: 'text', text: result.message }] }
        : { content: [{ type: 'text', text: JSON.stringify(result.value) }] };
    } catch (error) {
      // A tool the world lacks, or the trial closed since the request was admitted.
      if (error instanceof ApiError)
        return { isError: true, content: [{ type: 'text', text: error.message }] };
      throw error;
    }
  });
  return server;
}

function refusal(error: ApiError): Response {
  return jsonRpcError(
    error.status,
    error.status === 403 ? MCP_FORBIDDEN : MCP_UNAUTHORIZED,
    error.message,
    error.headers,
  );
}

/** Mounts the worlds' MCP endpoint on `app`. */
export function registerWorldMcpRoute(
  app: OpenAPIHono<GuardedEnv>,
  keyRing: KeyRing,
  scenarios: Scenarios,
  publicOrigin: string | undefined,
): void {
  app.all(WORLD_MCP_PATH, async (c) => {
    const request = c.req.raw;
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== publicOrigin && origin !== new URL(request.url).origin) {
      return jsonRpcError(403, MCP_FORBIDDEN, 'Requests from web pages of other origins are refused.');
    }
    const presented = bearerOf(request.headers.get('authorization'));
    if (presented !== undefined && keyRing.find(presented) !== undefined) {
      return jsonRpcError(
        403,
        MCP_FORBIDDEN,
        "A project key cannot call a world: use the trial token the trial's start answered.",
      );
    }
    let trial: TrialContext;
    try {
      trial = worldTrial(scenarios, request.headers.get('authorization'), c.req.param('worldId'));
    } catch (error) {
      if (error instanceof ApiError) return refusal(error);
      throw error;
    }
    if (request.method !== 'POST') {
      return jsonRpcError(
        405,
        -32000,
        'Method not allowed: this server answers POST only (stateless, no event stream).',
        {
          allow: 'POST',
        },
      );
    }
    const server = worldServer(scenarios, trial);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  });
}
