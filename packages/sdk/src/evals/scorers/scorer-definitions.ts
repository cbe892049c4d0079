/**
 * The shapes of scorer version definitions (the spec's "Evaluation objects": scorer definitions
 * and metric definitions). A definition is plain JSON: it is what `publishScorerVersion` sends and
 * what a scorer version pins. The reference server accepts exactly these shapes.
 *
 * - built-in: `{ kind: 'builtin', builtin: 'exact_match' | 'includes' | 'json_schema', … , metrics }`
 *   where `includes` carries `caseSensitive` (boolean, default true) and `json_schema` carries
 *   `schema` (a JSON Schema draft 2020-12, an object or a boolean). The metrics of a built-in are fixed:
 *   one boolean metric named as the built-in (see {@link BUILTIN_METRICS}).
 * - local code: `{ kind: 'local_code', language: 'typescript' | 'python', entrypoint, sourceDigest,
 *   metrics }`, `sourceDigest` being `sha256:<64 lowercase hex>` (see `sourceDigest()`).
 * - manual: `{ kind: 'manual', metrics }`.
 * - hosted judge: `{ kind: 'llm_judge', metrics, config }`.
 * @module
 */

/** A JSON value: what definitions, contexts and evidence hold. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A metric of type `boolean`: its value is `true` or `false`. */
export interface BooleanMetricDefinition {
  name: string;
  type: 'boolean';
}

/** A metric of type `text`: its value is a string. */
export interface TextMetricDefinition {
  name: string;
  type: 'text';
}

/** A metric of type `number`: its value is a finite number within the optional bounds (inclusive). */
export interface NumberMetricDefinition {
  name: string;
  type: 'number';
  min?: number;
  max?: number;
}

/** A metric of type `category`: its value is one of `categories`. */
export interface CategoryMetricDefinition {
  name: string;
  type: 'category';
  categories: string[];
}

/** A metric definition. Names are unique within a scorer definition. */
export type MetricDefinition =
  | BooleanMetricDefinition
  | TextMetricDefinition
  | NumberMetricDefinition
  | CategoryMetricDefinition;

/** The metric types of the spec. */
export type MetricType = MetricDefinition['type'];

/** Names of the built-in scorers. */
export type BuiltinScorerName = 'exact_match' | 'includes' | 'json_schema';

/**
 * The fixed metrics of each built-in: one boolean metric named as the built-in. A built-in
 * definition must carry exactly these metrics.
 */
export const BUILTIN_METRICS: {
  readonly [name in BuiltinScorerName]: readonly [BooleanMetricDefinition & { name: name }];
} = Object.freeze({
  exact_match: Object.freeze([Object.freeze({ name: 'exact_match', type: 'boolean' })] as const),
  includes: Object.freeze([Object.freeze({ name: 'includes', type: 'boolean' })] as const),
  json_schema: Object.freeze([Object.freeze({ name: 'json_schema', type: 'boolean' })] as const),
});

/** Built-in exact match: the output equals the expected value. */
export interface ExactMatchScorerDefinition {
  kind: 'builtin';
  builtin: 'exact_match';
  metrics: [BooleanMetricDefinition];
}

/** Built-in string inclusion: the output includes the expected text. */
export interface IncludesScorerDefinition {
  kind: 'builtin';
  builtin: 'includes';
  /** Default true (the spec's default); always present in a definition made by `builtins.includes()`. */
  caseSensitive?: boolean;
  metrics: [BooleanMetricDefinition];
}

/** A JSON Schema (draft 2020-12): an object or a boolean. */
export type JsonSchema = boolean | { [key: string]: JsonValue };

/** Built-in JSON Schema check: the output validates against `schema` (draft 2020-12). */
export interface JsonSchemaScorerDefinition {
  kind: 'builtin';
  builtin: 'json_schema';
  schema: JsonSchema;
  metrics: [BooleanMetricDefinition];
}

/** A built-in scorer definition. */
export type BuiltinScorerDefinition =
  | ExactMatchScorerDefinition
  | IncludesScorerDefinition
  | JsonSchemaScorerDefinition;

/** Languages of local-code scorers. */
export type LocalScorerLanguage = 'typescript' | 'python';

/** A local-code scorer: code that runs in the caller's process, identified by its source digest. */
export interface LocalCodeScorerDefinition {
  kind: 'local_code';
  language: LocalScorerLanguage;
  /** Where the scorer function lives, for people (e.g. `scorers/tone.ts#score`); 1 to 256 characters. */
  entrypoint: string;
  /** `sha256:<64 lowercase hex>` of the source (see `sourceDigest()`). */
  sourceDigest: string;
  metrics: MetricDefinition[];
}

/** A manual scorer: people enter its scores. */
export interface ManualScorerDefinition {
  kind: 'manual';
  metrics: MetricDefinition[];
}

/** A value a hosted judge's prompt binds from the case or execution. */
export interface LlmJudgeBinding {
  name: string;
  path: string;
  required: boolean;
}

/** Configuration of a hosted judge (the spec's "Hosted judge `config`"). */
export interface LlmJudgeConfig {
  model: string;
  provider: string;
  rubric: string;
  bindings: LlmJudgeBinding[];
  maxOutputTokens: number;
  timeoutMs: number;
  temperature?: number;
}

/** A hosted judge scorer: the service grades with a model. */
export interface LlmJudgeScorerDefinition {
  kind: 'llm_judge';
  metrics: MetricDefinition[];
  config: LlmJudgeConfig;
}

/** Any scorer version definition. */
export type ScorerDefinition =
  | BuiltinScorerDefinition
  | LocalCodeScorerDefinition
  | ManualScorerDefinition
  | LlmJudgeScorerDefinition;

/** The kinds of scorer definitions. */
export type ScorerKind = ScorerDefinition['kind'];
