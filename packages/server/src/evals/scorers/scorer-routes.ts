/**
 * Routes of scorers and scorer versions (`/api/v1/evals/scorers…`, `/api/v1/evals/scorer-versions…`).
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { IdentitySchema, idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../core/read-routes.js';
import {
  ScorerDefinitionSchema,
  ScorerPageSchema,
  ScorerSchema,
  ScorerVersionSchema,
} from './scorer-schemas.js';
import { publicScorerVersion, type ScorerStore } from './scorer-store.js';

const ScorerParams = z.object({ scorerId: idParam('scorerId') });

/** Registers the scorer routes. */
export function registerScorerRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  store: ScorerStore,
): void {
  registerEvalRoute(app, context, {
    id: 'evals.scorers.create',
    summary: 'Creates a scorer',
    body: IdentitySchema,
    response: ScorerSchema,
    errors: { 409: 'The slug is taken (conflict)' },
    handle: ({ body }) => store.createScorer(body),
  });
  registerPageRoute(app, context, {
    id: 'evals.scorers.list',
    summary: 'Lists scorers, oldest first',
    response: ScorerPageSchema,
    handle: (_params, page) => store.listScorers(page),
  });
  registerGetRoute(app, context, {
    id: 'evals.scorers.get',
    summary: 'Reads a scorer',
    params: ScorerParams,
    response: ScorerSchema,
    missing: 'No such scorer',
    handle: (params) => store.getScorer(params.scorerId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.scorerVersions.publish',
    summary: 'Publishes the next, immutable version of a scorer',
    description:
      'The body is the definition: built-in (exact_match, includes with caseSensitive default true, json_schema ' +
      'with a draft 2020-12 schema), local_code, manual or llm_judge. Built-in metrics are fixed (one boolean ' +
      'metric named as the built-in) and filled in when omitted; a local_code sourceDigest is stored as sha256:<hex>.',
    params: ScorerParams,
    body: ScorerDefinitionSchema,
    response: ScorerVersionSchema,
    errors: { 400: 'Invalid definition or metric definitions', 404: 'No such scorer' },
    handle: ({ params, body }) => publicScorerVersion(store.publishVersion(params.scorerId, body)),
  });
  registerGetRoute(app, context, {
    id: 'evals.scorerVersions.get',
    summary: 'Reads a scorer version',
    description:
      "A sealed version (a scenario's llm_judge check) is shown without its config: its rubric is part of the scenario's sealed grading.",
    params: z.object({ versionId: idParam('versionId') }),
    response: ScorerVersionSchema,
    missing: 'No such scorer version',
    handle: (params) => publicScorerVersion(store.getVersion(params.versionId)),
  });
}
