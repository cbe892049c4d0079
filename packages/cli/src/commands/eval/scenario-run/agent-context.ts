/**
 * What `runMyAgent(inputs, context)` is given for one trial: the trial's world as an MCP client
 * (`context.mcp`, the official client connected to `/mcp/worlds/{worldId}` with the trial's token)
 * and as plain async functions (`context.tools`), the case's agent-visible files, the trial's span
 * and an abort signal. Every tool call, through either, is an `execute_tool` span under the trial's
 * span, so the viewer shows the agent's calls into the world in its trace.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SpanHandle, SvcClient } from '@svc-run/sdk';
import {
  createWorldClient,
  type ScenarioCaseFile,
  type StartedTrial,
  type WorldToolResult,
} from '@svc-run/sdk/evals';
import manifest from '../../../../package.json' with { type: 'json' };

/** A world tool as a plain async function. */
export type WorldToolFunction = (args?: Record<string, unknown>) => Promise<WorldToolResult>;

/** The second argument of `runMyAgent`. */
export interface AgentContext {
  /** An MCP client connected to the trial's world: `listTools()`, `callTool({ name, arguments })`. */
  mcp: Client;
  /** The world's tools as plain async functions by name. */
  tools: Record<string, WorldToolFunction>;
  /** The case's agent-visible files (content as UTF-8 text or base64, as `encoding` says). */
  files: ScenarioCaseFile[];
  /** The trial's span: the agent's own spans nest under it. */
  span: SpanHandle;
  /** Aborted when the trial is stopped (`--timeout`, Ctrl-C): the agent should stop. */
  signal: AbortSignal;
  /** Which trial this is. */
  trial: { caseKey: string; trial: number; trialId: string; worldId: string };
}

/** The timeout of each world call: the longest the client allows, so a loaded service is only slower. */
const CALL_TIMEOUT_MILLIS = 60_000;

/**
 * Opens the context of `started` (connects the MCP client). Close it once the agent has returned.
 *
 * @throws Error when the world's MCP endpoint cannot be reached.
 */
export async function openAgentContext(options: {
  started: StartedTrial;
  token: string;
  svc: SvcClient;
  span: SpanHandle;
  signal: AbortSignal;
}): Promise<{ context: AgentContext; close(): Promise<void> }> {
  const { started, token, svc, span, signal } = options;
  const world = createWorldClient({
    token,
    toolsUrl: started.world.toolsUrl,
    timeoutMillis: CALL_TIMEOUT_MILLIS,
  });
  const tools = Object.fromEntries(
    started.tools.map((tool): [string, WorldToolFunction] => [
      tool.name,
      (args = {}) => svc.tool(tool.name, args, () => world.callTool(tool.name, args)),
    ]),
  );
  const mcp = new Client({ name: 'svc-eval', version: manifest.version });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(started.world.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  // Each MCP tool call in an `execute_tool` span too, naming the world's MCP server.
  const callTool = mcp.callTool.bind(mcp);
  mcp.callTool = ((params, ...rest) =>
    svc.tool(params.name, params.arguments ?? {}, () => callTool(params, ...rest), {
      mcp,
    })) as typeof mcp.callTool;
  return {
    context: {
      mcp,
      tools,
      files: started.files,
      span,
      signal,
      trial: {
        caseKey: started.trial.caseKey,
        trial: started.trial.trial,
        trialId: started.trial.id,
        worldId: started.world.id,
      },
    },
    close: () => mcp.close().catch(() => undefined),
  };
}
