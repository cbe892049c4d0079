/**
 * A world's tools over plain HTTP, for `context.tools` (plain async functions over the world):
 * `GET /api/v1/worlds/{worldId}/tools` lists them, `POST …/tools/{toolName}` calls one with the
 * arguments as the JSON body. Both take the trial's token only (see `world-access.ts`). A call
 * answers the tool's result, or its error result (200 with `isError: true`: the agent sees it and
 * may act on it); it is not idempotent (a repeated call is another call, as over MCP).
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { readJsonBody } from '../../evals/core/json-body.js';
import { errorResponseDoc } from '../../http/error-schema.js';
import { SCENARIO_ROUTE_ACCESS } from '../scenario-route-access.js';
import type { Scenarios } from '../scenarios.js';
import { ToolResultSchema, WorldToolsSchema } from './scenario-schemas.js';
import { worldTrial } from './world-access.js';

const WorldParam = z
  .string()
  .openapi({ param: { name: 'worldId', in: 'path' }, description: 'The world ID a trial start answered' });
const ToolParam = z
  .string()
  .openapi({ param: { name: 'toolName', in: 'path' }, description: 'A tool of the world' });

const AUTH = {
  401: errorResponseDoc(
    'No trial token, not a valid one (unauthorized), or its trial is sealed or expired (trial_closed)',
  ),
  403: errorResponseDoc(
    "A project key (forbidden: these routes take a trial token), or another world's token",
  ),
};

function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Registers the world routes (and the trial-token security scheme) on `app`. */
export function registerWorldRoutes(app: OpenAPIHono<GuardedEnv>, scenarios: Scenarios): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'trialToken', {
    type: 'http',
    scheme: 'bearer',
    description: "A scenario trial's token (svc_trial_…): its own world's tools only",
  });
  const list = SCENARIO_ROUTE_ACCESS['worlds.tools.list'];
  const call = SCENARIO_ROUTE_ACCESS['worlds.tools.call'];
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: list.path,
    summary: "Lists a world's tools (name, description, JSON Schema of the arguments)",
    tags: ['Worlds'],
    security: [{ trialToken: [] }],
    request: { params: z.object({ worldId: WorldParam }) },
    responses: {
      200: { description: 'The tools', content: { 'application/json': { schema: WorldToolsSchema } } },
      ...AUTH,
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: call.path,
    summary: "Calls a world's tool",
    description:
      "The body is the arguments (a JSON object, checked against the tool's schema). Answers the result, or an error result (isError: true) the agent can act on; the call is recorded either way.",
    tags: ['Worlds'],
    security: [{ trialToken: [] }],
    request: {
      params: z.object({ worldId: WorldParam, toolName: ToolParam }),
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.unknown().openapi({ description: 'The arguments: any JSON value' }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The result or error result',
        content: { 'application/json': { schema: ToolResultSchema } },
      },
      ...AUTH,
      400: errorResponseDoc('The body is not valid JSON, or nests too deep'),
      404: errorResponseDoc('The world has no such tool'),
      413: errorResponseDoc('The body is over 1 MiB'),
      415: errorResponseDoc('The body is not JSON'),
    },
  });
  app.get(honoPath(list.path), (c) => {
    const trial = worldTrial(scenarios, c.req.header('authorization'), c.req.param('worldId') ?? '');
    return c.json({ tools: trial.version.publicPart.tools });
  });
  app.post(honoPath(call.path), async (c) => {
    const trial = worldTrial(scenarios, c.req.header('authorization'), c.req.param('worldId') ?? '');
    const args = await readJsonBody(c.req.raw, c.env?.incoming);
    return c.json(scenarios.worlds.call(trial.row.id, c.req.param('toolName') ?? '', args));
  });
}
