/**
 * The deterministic checks of a sealed outcome: state checks on the final world state, tool-call
 * checks on the ordered calls, output checks with the built-in comparisons (the SDK's own, from
 * `@svc-run/conventions`; JSON Schema with ajv set up as the SDK's). Pure: an outcome and a check
 * give pass or fail, nothing else — what a check expected is never part of its result.
 * @module
 */
import { decideExactMatch, decideIncludes, jsonEqual } from '@svc-run/conventions';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Check } from '../document/scenario-document-schema.js';
import { getAt, type JsonValue, parsePointer } from '../world/json-pointer.js';

/** A tool call as sealed: in call order. */
export interface SealedCall {
  tool: string;
  arguments: unknown;
  isError: boolean;
}

/** What the checks grade. */
export interface SealedOutcome {
  finalState: JsonValue;
  /** Every call, in order; tool-call checks count the successful ones (not error results). */
  toolCalls: readonly SealedCall[];
  /** The final output; `undefined` when the agent returned none. */
  output: unknown;
}

/** A deterministic check (every kind but `llm_judge`). */
export type DeterministicCheck = Exclude<Check, { kind: 'llm_judge' }>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `actual` matches `expected`: an expected object matches an object holding each of its
 * members (matching, recursively; other members may be there too); anything else must be equal.
 */
export function matches(actual: unknown, expected: unknown): boolean {
  if (isObject(expected)) {
    return (
      isObject(actual) &&
      Object.keys(expected).every((key) => Object.hasOwn(actual, key) && matches(actual[key], expected[key]))
    );
  }
  return jsonEqual(actual, expected);
}

function stateCheck(check: Extract<Check, { kind: 'state' }>, state: JsonValue): boolean {
  const actual = getAt(state, parsePointer(check.pointer));
  switch (check.assert) {
    case 'equals':
      return actual !== undefined && jsonEqual(actual, check.value);
    case 'absent':
      return actual === undefined;
    case 'count': {
      const size = Array.isArray(actual) ? actual.length : isObject(actual) ? Object.keys(actual).length : 0;
      return (actual === undefined || typeof actual === 'object') && size === check.count;
    }
    case 'contains':
      if (typeof actual === 'string') return typeof check.value === 'string' && actual.includes(check.value);
      if (Array.isArray(actual)) return actual.some((item) => matches(item, check.value));
      return isObject(actual) && matches(actual, check.value);
  }
}

function toolCallCheck(check: Extract<Check, { kind: 'tool_call' }>, calls: readonly SealedCall[]): boolean {
  const done = calls.filter((call) => !call.isError);
  switch (check.assert) {
    case 'called': {
      const count = done.filter((call) => call.tool === check.tool).length;
      return check.times === undefined ? count > 0 : count === check.times;
    }
    case 'not_called':
      return !done.some((call) => call.tool === check.tool);
    case 'called_with':
      return done.some(
        (call) =>
          call.tool === check.tool &&
          isObject(call.arguments) &&
          Object.entries(check.arguments).every(
            ([name, value]) =>
              Object.hasOwn(call.arguments as object, name) &&
              jsonEqual((call.arguments as Record<string, unknown>)[name], value),
          ),
      );
    case 'order': {
      let next = 0;
      for (const call of done) if (call.tool === check.tools[next]) next++;
      return next >= check.tools.length;
    }
  }
}

const validators = new Map<string, ValidateFunction>();

function schemaValidator(schema: boolean | Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: false }).compile(schema);
    if (validators.size >= 256) validators.delete(validators.keys().next().value as string);
    validators.set(key, validate);
  }
  return validate;
}

/** The JSON Schema built-in's readings: a string output is read as JSON text (when it parses), then as the string. */
function matchesSchema(output: unknown, schema: boolean | Record<string, unknown>): boolean {
  const validate = schemaValidator(schema);
  if (typeof output !== 'string') return validate(output);
  try {
    if (validate(JSON.parse(output))) return true;
  } catch {
    // text that is not JSON is validated as a string
  }
  return validate(output);
}

function outputCheck(check: Extract<Check, { kind: 'output' }>, output: unknown): boolean {
  if (output === undefined) return false;
  switch (check.scorer) {
    case 'exact_match':
      return decideExactMatch(output, check.expected).equal;
    case 'includes':
      return decideIncludes(output, check.expected, check.caseSensitive ?? true).passed;
    case 'json_schema':
      return matchesSchema(output, check.schema);
  }
}

/** Whether `outcome` passes `check`. */
export function passesCheck(check: DeterministicCheck, outcome: SealedOutcome): boolean {
  switch (check.kind) {
    case 'state':
      return stateCheck(check, outcome.finalState);
    case 'tool_call':
      return toolCallCheck(check, outcome.toolCalls);
    case 'output':
      return outputCheck(check, outcome.output);
  }
}
