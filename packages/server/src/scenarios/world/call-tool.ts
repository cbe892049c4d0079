/**
 * The world engine: one tool call on a state gives the next state and the result the agent sees.
 * Pure: the given state is never changed, and nothing but the state is read or written (every
 * pointer starts at its root; see `json-pointer.ts` and `templates.ts`).
 *
 * A call is, in order: its arguments checked against the tool's JSON Schema; its preconditions,
 * each of which may answer its own error; then its effect. Every refusal is an error result
 * (`isError: true`) with a message the agent can act on; the state is then unchanged.
 * @module
 */
import { jsonEqual } from '@svc-run/conventions';
import {
  createAt,
  getAt,
  type JsonValue,
  removeAt,
  replaceAt,
  type WriteFailure,
  type WriteOutcome,
} from './json-pointer.js';
import { mergePatch } from './merge-patch.js';
import { queryItems } from './query.js';
import { fillPointer, fillValue, type TemplateGap, type ToolArguments } from './templates.js';
import { argumentProblems } from './tool-arguments.js';
import type { Effect, Precondition, ToolResult, WorldTool } from './world-types.js';

/** The outcome of one call: the next state (the same state after an error result) and the result. */
export interface CallOutcome {
  state: JsonValue;
  result: ToolResult;
}

/** Items a query answers when its tool sets no `limit`. */
export const DEFAULT_QUERY_LIMIT = 100;

const DEFAULT_NOT_FOUND = 'Not found.';
const DEFAULT_EXISTS = 'Already exists.';

function failed(message: string): ToolResult {
  return { isError: true, message };
}

function gapMessage(gap: TemplateGap): string {
  return gap.reason === 'missing'
    ? `The argument "${gap.argument}" is required for this call.`
    : `The argument "${gap.argument}" must be a string or an integer.`;
}

function writeMessage(failure: WriteFailure, effect: Effect): string {
  if (failure === 'exists') return (effect.op === 'create' ? effect.exists : undefined) ?? DEFAULT_EXISTS;
  if (failure === 'root') return 'This tool cannot replace or remove the whole world.';
  if (failure === 'bad_index') return 'No such position.';
  return effect.notFound ?? DEFAULT_NOT_FOUND;
}

/** The error message of the first precondition that does not hold, or `undefined`. */
function preconditionFailure(
  state: JsonValue,
  preconditions: readonly Precondition[],
  args: ToolArguments,
): string | undefined {
  for (const condition of preconditions) {
    const location = fillPointer(condition.pointer, args);
    if (!location.ok) return gapMessage(location.gap);
    const actual = getAt(state, location.tokens);
    let holds: boolean;
    switch (condition.assert) {
      case 'exists':
        holds = actual !== undefined;
        break;
      case 'absent':
        holds = actual === undefined;
        break;
      default: {
        const wanted = fillValue(condition.value, args);
        if (!wanted.ok) return gapMessage(wanted.gap);
        const equal = actual !== undefined && jsonEqual(actual, wanted.value);
        holds = condition.assert === 'equals' ? equal : !equal;
      }
    }
    if (!holds) return condition.error;
  }
  return undefined;
}

function written(outcome: WriteOutcome, effect: Effect, value: JsonValue, state: JsonValue): CallOutcome {
  if (!outcome.ok) return { state, result: failed(writeMessage(outcome.failure, effect)) };
  return { state: outcome.root, result: { isError: false, value } };
}

function applyEffect(state: JsonValue, effect: Effect, args: ToolArguments): CallOutcome {
  const location = fillPointer(effect.pointer, args);
  if (!location.ok) return { state, result: failed(gapMessage(location.gap)) };
  const { tokens } = location;
  const current = getAt(state, tokens);
  switch (effect.op) {
    case 'read':
      return {
        state,
        result:
          current === undefined
            ? failed(effect.notFound ?? DEFAULT_NOT_FOUND)
            : { isError: false, value: current },
      };
    case 'query': {
      if (typeof current !== 'object' || current === null) {
        return { state, result: failed(effect.notFound ?? DEFAULT_NOT_FOUND) };
      }
      const items = queryItems(current, effect.where ?? [], args, effect.limit ?? DEFAULT_QUERY_LIMIT);
      return { state, result: { isError: false, value: items } };
    }
    case 'delete': {
      if (current === undefined) return { state, result: failed(effect.notFound ?? DEFAULT_NOT_FOUND) };
      return written(removeAt(state, tokens), effect, { deleted: true }, state);
    }
    default: {
      const filled = fillValue(effect.value, args);
      if (!filled.ok) return { state, result: failed(gapMessage(filled.gap)) };
      if (effect.op === 'create')
        return written(createAt(state, tokens, filled.value), effect, filled.value, state);
      if (current === undefined) return { state, result: failed(effect.notFound ?? DEFAULT_NOT_FOUND) };
      const next = effect.op === 'merge' ? mergePatch(current, filled.value) : filled.value;
      return written(replaceAt(state, tokens, next), effect, next, state);
    }
  }
}

/**
 * Calls `tool` with `args` on `state`.
 *
 * @param args - The arguments as the agent sent them (any JSON value; checked here).
 */
export function callTool(tool: WorldTool, state: JsonValue, args: unknown): CallOutcome {
  const problems = argumentProblems(tool.arguments, args);
  if (problems !== undefined) {
    return { state, result: failed(`Invalid arguments for ${tool.name}: ${problems.join('; ')}.`) };
  }
  const checked = args as ToolArguments;
  const refusal = preconditionFailure(state, tool.preconditions ?? [], checked);
  if (refusal !== undefined) return { state, result: failed(refusal) };
  return applyEffect(state, tool.effect, checked);
}
