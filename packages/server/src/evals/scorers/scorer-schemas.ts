/**
 * Scorers and scorer version definitions: built-in (exact match, includes, JSON Schema 2020-12),
 * local code, manual and hosted judge (the shapes of the SDK's `scorer-definitions.ts`).
 * @module
 */
import { z } from '@hono/zod-openapi';
import { IdSchema, text } from '../core/common-schemas.js';
import { pageSchema } from '../core/paging.js';
import { jsonSchemaProblem } from './json-schema-shape.js';
import { MetricDefinitionSchema, MetricsSchema } from './metric-schemas.js';

/** The fixed metric of a built-in: one boolean metric named as the built-in. */
function builtinMetrics<N extends string>(name: N) {
  return z
    .array(z.strictObject({ name: z.literal(name), type: z.literal('boolean') }))
    .min(1)
    .max(1)
    .optional()
    .describe(`Fixed: [{ "name": "${name}", "type": "boolean" }] (filled in when omitted)`);
}

const ExactMatch = z.strictObject({
  kind: z.literal('builtin'),
  builtin: z.literal('exact_match'),
  metrics: builtinMetrics('exact_match'),
});

const Includes = z.strictObject({
  kind: z.literal('builtin'),
  builtin: z.literal('includes'),
  caseSensitive: z.boolean().optional().describe('Default true'),
  metrics: builtinMetrics('includes'),
});

const JsonSchemaBuiltin = z
  .strictObject({
    kind: z.literal('builtin'),
    builtin: z.literal('json_schema'),
    schema: z
      .union([z.boolean(), z.record(z.string(), z.unknown())])
      .describe('A JSON Schema, draft 2020-12 (an object or a boolean)'),
    metrics: builtinMetrics('json_schema'),
  })
  .superRefine((definition, ctx) => {
    const problem = jsonSchemaProblem(definition.schema);
    if (problem !== undefined)
      ctx.addIssue({ code: 'custom', message: `invalid JSON Schema at ${problem}`, path: ['schema'] });
  });

const SOURCE_DIGEST = /^(?:sha256:)?[0-9a-f]{64}$/;

const LocalCode = z.strictObject({
  kind: z.literal('local_code'),
  language: z.enum(['typescript', 'python']),
  entrypoint: text(256).describe('Where the scorer function lives, e.g. scorers/tone.ts#score'),
  sourceDigest: z
    .string()
    .regex(SOURCE_DIGEST, 'must be sha256:<64 lowercase hex> (or the 64 hex digits alone)')
    .describe('SHA-256 of the source; stored as sha256:<64 lowercase hex>'),
  metrics: MetricsSchema,
});

const Manual = z.strictObject({ kind: z.literal('manual'), metrics: MetricsSchema });

/** Where a judge binding reads: a JSON Pointer into `{ inputs, output, expected, metadata, executionState }`. */
const BINDING_PATH = /^\/(?:inputs|output|expected|metadata|executionState)(?:\/.*)?$/;

const Binding = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier of 1 to 64 characters'),
  path: z
    .string()
    .max(1024)
    .regex(
      BINDING_PATH,
      'must be a JSON Pointer starting with /inputs, /output, /expected, /metadata or /executionState',
    ),
  required: z.boolean(),
});

/** Configuration of a hosted judge. */
export const LlmJudgeConfigSchema = z
  .strictObject({
    model: text(256),
    provider: text(256),
    rubric: text(32_768),
    bindings: z
      .array(Binding)
      .min(1)
      .max(32)
      .superRefine((bindings, ctx) => {
        const seen = new Set<string>();
        for (const [index, binding] of bindings.entries()) {
          if (seen.has(binding.name))
            ctx.addIssue({ code: 'custom', message: 'binding names must be unique', path: [index, 'name'] });
          seen.add(binding.name);
        }
      }),
    maxOutputTokens: z.number().int().min(1).max(100_000),
    timeoutMs: z.number().int().min(1_000).max(600_000),
    temperature: z.number().min(0).max(2).optional(),
  })
  .openapi('LlmJudgeConfig');

const LlmJudge = z.strictObject({
  kind: z.literal('llm_judge'),
  metrics: MetricsSchema,
  config: LlmJudgeConfigSchema,
});

/** A scorer version definition, as published. */
export const ScorerDefinitionSchema = z
  .discriminatedUnion('kind', [
    z.discriminatedUnion('builtin', [ExactMatch, Includes, JsonSchemaBuiltin]),
    LocalCode,
    Manual,
    LlmJudge,
  ])
  .openapi('ScorerDefinition');

/** A published definition, as stored and returned (defaults applied). */
export const StoredDefinitionSchema = z
  .object({
    kind: z.enum(['builtin', 'local_code', 'manual', 'llm_judge']),
    metrics: z.array(MetricDefinitionSchema),
  })
  .passthrough()
  .openapi('StoredScorerDefinition');

/** A scorer. */
export const ScorerSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    slug: z.string(),
    description: z.string().optional(),
    latestVersionId: IdSchema.nullable(),
    versionCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi('Scorer');

/** An immutable scorer version. */
export const ScorerVersionSchema = z
  .object({
    id: IdSchema,
    scorerId: IdSchema,
    number: z.number().int(),
    definition: StoredDefinitionSchema,
    createdAt: z.string(),
    sealed: z
      .literal(true)
      .optional()
      .describe("Present on a scenario's sealed hosted judge: its config (rubric) is never shown"),
  })
  .openapi('ScorerVersion');

export const ScorerPageSchema = pageSchema(ScorerSchema, 'ScorerPage');
