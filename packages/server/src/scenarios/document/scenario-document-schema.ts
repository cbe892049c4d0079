/**
 * The scenario document: what `POST /api/v1/evals/scenarios` takes and what `svc scenario publish`
 * reads from a JSON or YAML file. One zod schema validates it, documents the route in the OpenAPI
 * document, and is the source of the published JSON Schema (`scenario-document.schema.json`,
 * checked against it by a test). Rules JSON Schema cannot state (unique names, pointers, argument
 * references, case keys of checks) are `document-rules.ts`.
 *
 * - `world`: the initial `state` (a JSON object) and the `tools` (name, description, JSON Schema
 *   of the arguments, preconditions, one effect).
 * - `cases`: what the agent sees (`inputs`, `files`) and optional changes to the initial state.
 * - `grading`: the sealed checks. Nothing under `grading` is ever shown again by the service.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { chars, JsonValueSchema, SlugSchema, text } from '../../evals/core/common-schemas.js';
import {
  MAX_CASE_FILES,
  MAX_CASES,
  MAX_CHECKS,
  MAX_FILTERS,
  MAX_PRECONDITIONS,
  MAX_STATE_CHANGES,
  MAX_TOOLS,
} from './document-limits.js';

const JsonObject = z.record(z.string(), z.unknown());

/** A tool name as MCP hosts take it. */
export const ToolNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a letter then up to 63 letters, digits, "_" or "-"');

/** A case key: what identifies a case in the document and in runs (its external key). */
export const CaseKeySchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,63}$/,
    'must be 1 to 64 lowercase letters, digits, "_" or "-", not starting with "_" or "-"',
  );

/** A check name: shown in results (never the check itself). */
export const CheckNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,127}$/,
    'must be 1 to 128 letters, digits, spaces, "_", ".", ":" or "-", starting with a letter or digit',
  );

const Pointer = z.string().max(1024).describe('A JSON Pointer (RFC 6901) into the world state');
const PointerTemplate = z
  .string()
  .max(1024)
  .describe(
    'A JSON Pointer into the world state; {name} is replaced by the argument name as one escaped token',
  );
const Message = text(1024);

const Precondition = z.discriminatedUnion('assert', [
  z.strictObject({ assert: z.enum(['exists', 'absent']), pointer: PointerTemplate, error: Message }),
  z.strictObject({
    assert: z.enum(['equals', 'not_equals']),
    pointer: PointerTemplate,
    value: JsonValueSchema.describe('A value template: {"$arg": "name"} is replaced by the argument'),
    error: Message,
  }),
]);

const Filter = z.strictObject({
  path: Pointer.describe('A JSON Pointer into each item'),
  op: z.enum(['equals', 'not_equals', 'contains', 'gt', 'gte', 'lt', 'lte']),
  value: JsonValueSchema.describe(
    'A value template; a filter whose argument the call leaves out is not applied',
  ),
});

const ValueTemplate = JsonValueSchema.describe(
  'A value template: {"$arg": "name"} is replaced by the argument',
);

const Effect = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('read'), pointer: PointerTemplate, notFound: Message.optional() }),
  z.strictObject({
    op: z.literal('query'),
    pointer: PointerTemplate.describe('An array or object whose items (values) are queried'),
    where: z.array(Filter).max(MAX_FILTERS).optional(),
    limit: z.number().int().min(1).max(1000).optional().describe('Most items answered; default 100'),
    notFound: Message.optional(),
  }),
  z.strictObject({
    op: z.literal('create'),
    pointer: PointerTemplate.describe('A new property, an array index to insert at, or "-" to append'),
    value: ValueTemplate,
    exists: Message.optional(),
    notFound: Message.optional(),
  }),
  z.strictObject({
    op: z.literal('update'),
    pointer: PointerTemplate,
    value: ValueTemplate,
    notFound: Message.optional(),
  }),
  z.strictObject({
    op: z.literal('merge'),
    pointer: PointerTemplate,
    value: ValueTemplate.describe('A JSON Merge Patch (RFC 7386) template: null removes a member'),
    notFound: Message.optional(),
  }),
  z.strictObject({ op: z.literal('delete'), pointer: PointerTemplate, notFound: Message.optional() }),
]);

const Tool = z.strictObject({
  name: ToolNameSchema,
  description: text(2048),
  arguments: JsonObject.describe('JSON Schema (draft 2020-12) of the arguments: an object schema'),
  preconditions: z.array(Precondition).max(MAX_PRECONDITIONS).optional(),
  effect: Effect,
});

const CaseFile = z.strictObject({
  name: text(255),
  mediaType: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/,
      'must be a media type such as text/plain',
    ),
  content: z.string().describe('The file: text, or base64 with encoding base64'),
  encoding: z.enum(['utf8', 'base64']).optional().describe('Default utf8'),
});

const StateChange = z.discriminatedUnion('op', [
  z.strictObject({ op: z.enum(['add', 'replace']), path: Pointer, value: JsonValueSchema }),
  z.strictObject({ op: z.literal('remove'), path: Pointer }),
]);

const Case = z.strictObject({
  key: CaseKeySchema,
  name: text(256).optional(),
  inputs: JsonValueSchema.describe('What the agent is given (runMyAgent(inputs, context))'),
  files: z.array(CaseFile).max(MAX_CASE_FILES).optional().describe('Files the agent sees (context.files)'),
  state: z
    .array(StateChange)
    .max(MAX_STATE_CHANGES)
    .optional()
    .describe('Changes to the initial state for this case (JSON Patch add, replace, remove)'),
});

const checkFields = {
  name: CheckNameSchema,
  required: z.boolean().optional().describe('Default true: a case passes when all its required checks pass'),
  cases: z
    .array(CaseKeySchema)
    .min(1)
    .max(MAX_CASES)
    .optional()
    .describe('The cases it grades; default every case'),
};

const StateCheck = z.discriminatedUnion('assert', [
  z.strictObject({
    kind: z.literal('state'),
    assert: z.enum(['equals', 'contains']),
    pointer: Pointer,
    value: JsonValueSchema,
    ...checkFields,
  }),
  z.strictObject({ kind: z.literal('state'), assert: z.literal('absent'), pointer: Pointer, ...checkFields }),
  z.strictObject({
    kind: z.literal('state'),
    assert: z.literal('count'),
    pointer: Pointer,
    count: z.number().int().min(0).max(1_000_000),
    ...checkFields,
  }),
]);

const ToolCallCheck = z.discriminatedUnion('assert', [
  z.strictObject({
    kind: z.literal('tool_call'),
    assert: z.literal('called'),
    tool: ToolNameSchema,
    times: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('Exactly this many successful calls; default at least one'),
    ...checkFields,
  }),
  z.strictObject({
    kind: z.literal('tool_call'),
    assert: z.literal('not_called'),
    tool: ToolNameSchema,
    ...checkFields,
  }),
  z.strictObject({
    kind: z.literal('tool_call'),
    assert: z.literal('called_with'),
    tool: ToolNameSchema,
    arguments: JsonObject.describe('Each member must equal the call argument of the same name'),
    ...checkFields,
  }),
  z.strictObject({
    kind: z.literal('tool_call'),
    assert: z.literal('order'),
    tools: z
      .array(ToolNameSchema)
      .min(2)
      .max(32)
      .describe('Successful calls of these tools happened in this order'),
    ...checkFields,
  }),
]);

const OutputCheck = z.discriminatedUnion('scorer', [
  z.strictObject({
    kind: z.literal('output'),
    scorer: z.literal('exact_match'),
    expected: JsonValueSchema,
    ...checkFields,
  }),
  z.strictObject({
    kind: z.literal('output'),
    scorer: z.literal('includes'),
    expected: JsonValueSchema,
    caseSensitive: z.boolean().optional().describe('Default true'),
    ...checkFields,
  }),
  z.strictObject({
    kind: z.literal('output'),
    scorer: z.literal('json_schema'),
    schema: z.union([z.boolean(), JsonObject]).describe('A JSON Schema, draft 2020-12'),
    ...checkFields,
  }),
]);

const JudgeCheck = z.strictObject({
  kind: z.literal('llm_judge'),
  rubric: text(32_768).describe("What the judge grades; it sees the case's inputs and the final output"),
  model: text(256),
  provider: text(256),
  maxOutputTokens: z.number().int().min(1).max(100_000).optional().describe('Default 1024'),
  timeoutMs: z.number().int().min(1_000).max(600_000).optional().describe('Default 60000'),
  temperature: z.number().min(0).max(2).optional(),
  ...checkFields,
});

/** One sealed check. */
export const CheckSchema = z.discriminatedUnion('kind', [StateCheck, ToolCallCheck, OutputCheck, JudgeCheck]);

/** The scenario document. */
export const ScenarioDocumentSchema = z
  .strictObject({
    $schema: z.string().max(2048).optional().describe('The JSON Schema of this document, for editors'),
    name: text(256),
    slug: SlugSchema,
    description: chars(4096).optional(),
    world: z.strictObject({
      state: JsonObject.describe('The initial state of every world instance: a JSON object'),
      tools: z.array(Tool).min(1).max(MAX_TOOLS),
    }),
    cases: z.array(Case).min(1).max(MAX_CASES),
    grading: z.strictObject({
      checks: z.array(CheckSchema).min(1).max(MAX_CHECKS),
    }),
  })
  .openapi('ScenarioDocument');

/** A scenario document, validated. */
export type ScenarioDocument = z.output<typeof ScenarioDocumentSchema>;
/** One check of a document. */
export type Check = z.output<typeof CheckSchema>;
/** One tool of a document. */
export type DocumentTool = ScenarioDocument['world']['tools'][number];
/** One case of a document. */
export type DocumentCase = ScenarioDocument['cases'][number];
