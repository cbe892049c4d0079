/**
 * The scenario document `publishScenario` takes, as TypeScript types. Its JSON Schema (the rules
 * in full: limits, patterns) is published as `@svc-run/server/scenario-document.schema.json`; the
 * service checks every rule and answers every problem at once (`SvcApiError.problems`).
 * @module
 */
import type { JsonValue } from '../scorers/scorer-definitions.js';

/** A JSON Pointer into the world state; in a tool, `{name}` is replaced by the argument `name`. */
export type PointerTemplate = string;

/** A value template: `{ "$arg": "name" }` anywhere in it is replaced by the argument `name`. */
export type ValueTemplate = JsonValue;

/** A condition checked before a tool's effect; when false, the agent gets `error`. */
export type ScenarioPrecondition =
  | { assert: 'exists' | 'absent'; pointer: PointerTemplate; error: string }
  | { assert: 'equals' | 'not_equals'; pointer: PointerTemplate; value: ValueTemplate; error: string };

/** A tool's effect on the world state. */
export type ScenarioToolEffect =
  | { op: 'read'; pointer: PointerTemplate; notFound?: string }
  | {
      op: 'query';
      pointer: PointerTemplate;
      where?: {
        path: string;
        op: 'equals' | 'not_equals' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
        value: ValueTemplate;
      }[];
      limit?: number;
      notFound?: string;
    }
  | { op: 'create'; pointer: PointerTemplate; value: ValueTemplate; exists?: string; notFound?: string }
  | { op: 'update' | 'merge'; pointer: PointerTemplate; value: ValueTemplate; notFound?: string }
  | { op: 'delete'; pointer: PointerTemplate; notFound?: string };

/** A tool of the world. */
export interface ScenarioToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the arguments: an object schema. */
  arguments: Record<string, unknown>;
  preconditions?: ScenarioPrecondition[];
  effect: ScenarioToolEffect;
}

/** A case: what the agent sees, and changes to the world's initial state. */
export interface ScenarioCaseDefinition {
  key: string;
  name?: string;
  inputs: JsonValue;
  files?: { name: string; mediaType: string; content: string; encoding?: 'utf8' | 'base64' }[];
  state?: ({ op: 'add' | 'replace'; path: string; value: JsonValue } | { op: 'remove'; path: string })[];
}

/** What every check has. */
interface CheckBase {
  /** Shown in results (never what the check expects). */
  name: string;
  /** Default true: a case passes when all its required checks pass. */
  required?: boolean;
  /** The cases it grades; default every case. */
  cases?: string[];
}

/** A sealed check. */
export type ScenarioCheck = CheckBase &
  (
    | { kind: 'state'; assert: 'equals' | 'contains'; pointer: string; value: JsonValue }
    | { kind: 'state'; assert: 'absent'; pointer: string }
    | { kind: 'state'; assert: 'count'; pointer: string; count: number }
    | { kind: 'tool_call'; assert: 'called'; tool: string; times?: number }
    | { kind: 'tool_call'; assert: 'not_called'; tool: string }
    | { kind: 'tool_call'; assert: 'called_with'; tool: string; arguments: Record<string, JsonValue> }
    | { kind: 'tool_call'; assert: 'order'; tools: string[] }
    | { kind: 'output'; scorer: 'exact_match'; expected: JsonValue }
    | { kind: 'output'; scorer: 'includes'; expected: JsonValue; caseSensitive?: boolean }
    | { kind: 'output'; scorer: 'json_schema'; schema: boolean | Record<string, unknown> }
    | {
        kind: 'llm_judge';
        rubric: string;
        model: string;
        provider: string;
        maxOutputTokens?: number;
        timeoutMs?: number;
        temperature?: number;
      }
  );

/** A scenario document. */
export interface ScenarioDocument {
  $schema?: string;
  name: string;
  slug: string;
  description?: string;
  world: { state: Record<string, JsonValue>; tools: ScenarioToolDefinition[] };
  cases: ScenarioCaseDefinition[];
  /** Sealed: the service never shows it again. */
  grading: { checks: ScenarioCheck[] };
}
