/**
 * `createWorldClient`: the plain-HTTP client of one trial's world, with the trial's token (what
 * `context.tools` is built on; `context.mcp` connects an MCP client to `world.mcpUrl` with the same
 * token instead). The token calls that world's tools and nothing else, and dies with its trial.
 * @module
 */
import type { ScenarioTool, WorldToolResult } from '../types/scenario-types.js';
import { createEvalTransport } from './eval-transport.js';
import { validateEvaluationClientOptions } from './evaluation-client-options.js';

/** Options of {@link createWorldClient}. */
export interface WorldClientOptions {
  /** The trial's token (`StartedTrial.token`). A credential: never log it. */
  token: string;
  /** The world's tools URL (`StartedTrial.world.toolsUrl`). */
  toolsUrl: string;
  /** Integer 100 to 60000; default 10000. The deadline of each call. */
  timeoutMillis?: number;
}

/** The client of one world. */
export interface WorldClient {
  /** The world's tools: name, description, JSON Schema of the arguments. */
  listTools(): Promise<ScenarioTool[]>;
  /**
   * Calls a tool. Answers its result, or its error result (`isError: true`) that the agent may act
   * on; a call is never retried (each call is recorded, like a call over MCP).
   * @throws {@link SvcApiError} 401 `trial_closed` once the trial is sealed or expired; 404 for a tool the world lacks.
   */
  callTool(name: string, args?: Record<string, unknown>): Promise<WorldToolResult>;
  /** The tools as plain async functions by name (`context.tools`). */
  toolFunctions(): Promise<Record<string, (args?: Record<string, unknown>) => Promise<WorldToolResult>>>;
}

const TOOLS_PATH = /^\/api\/v1\/worlds\/[0-9a-f-]{36}\/tools$/;

/**
 * Creates the client of a trial's world.
 *
 * @example
 * ```ts
 * const started = await evals.startTrial(run.id, { idempotencyKey, caseKey: 'refund', trial: 1 });
 * const world = createWorldClient({ token: started.token!, toolsUrl: started.world.toolsUrl });
 * const order = await world.callTool('get_order', { order_id: 'o1' });
 * ```
 * @throws TypeError when an option is invalid (the message names it; never the token's value).
 */
export function createWorldClient(options: WorldClientOptions): WorldClient {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('options must be an object { token, toolsUrl, timeoutMillis? }');
  }
  if (typeof options.token !== 'string' || !/^svc_trial_[A-Za-z0-9_-]{43}$/.test(options.token)) {
    throw new TypeError("token must be a trial token (svc_trial_…) from a trial's start answer");
  }
  let url: URL;
  try {
    url = new URL(String(options.toolsUrl));
  } catch {
    throw new TypeError(
      "toolsUrl must be the world's tools URL from a trial's start answer (world.toolsUrl)",
    );
  }
  if (!TOOLS_PATH.test(url.pathname) || url.search !== '' || url.hash !== '') {
    throw new TypeError(
      "toolsUrl must be the world's tools URL from a trial's start answer (world.toolsUrl)",
    );
  }
  const resolved = validateEvaluationClientOptions({
    apiKey: options.token,
    baseUrl: url.origin,
    timeoutMillis: options.timeoutMillis,
  });
  const send = createEvalTransport(resolved, 'trial token');
  const path = url.pathname;
  const callTool = async (name: string, args: Record<string, unknown> = {}): Promise<WorldToolResult> => {
    if (typeof name !== 'string' || name === '')
      throw new TypeError('name must be the name of a tool of the world');
    return send<WorldToolResult>({
      operation: `callTool(${name.slice(0, 64)})`,
      method: 'POST',
      path: `${path}/${encodeURIComponent(name)}`,
      body: args,
    });
  };
  const listTools = async () =>
    (await send<{ tools: ScenarioTool[] }>({ operation: 'listTools', method: 'GET', path })).tools;
  return {
    listTools,
    callTool,
    toolFunctions: async () =>
      Object.fromEntries(
        (await listTools()).map((tool) => [
          tool.name,
          (args?: Record<string, unknown>) => callTool(tool.name, args),
        ]),
      ),
  };
}
