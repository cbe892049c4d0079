/**
 * What a target did, as the runner saves it and completes the execution with: a JSON output, an
 * error, or a return that cannot be saved as JSON.
 * @module
 */
import { whyNotJson } from '../../diagnostics/json-failure.js';
import { findNonJson } from '../scorers/json-value.js';
import type { JsonValue } from '../scorers/scorer-definitions.js';
import type { ErrorInfo } from '../types/common-types.js';
import type { TraceEvidence } from './runner-options.js';
import type { CompleteBody, SavedOutcome } from './runner-records.js';

/** The error type of an execution whose target returned a value that cannot be saved as JSON. */
export const OUTCOME_SERIALIZATION_ERROR = 'OutcomeSerializationError';

/** Longest JSON output the runner sends: the service's 1 MiB request limit, less room for the rest. */
export const MAX_OUTPUT_JSON_BYTES = 1024 * 1024 - 16 * 1024;

const MAX_ERROR_TYPE = 256;
const MAX_ERROR_MESSAGE = 4096;

/** The saved outcome of a target that returned `value`. */
export function returnedOutcome(value: unknown, persistResultContent: boolean): SavedOutcome {
  if (value === undefined) return { kind: 'returned' };
  let problem: string | undefined;
  let json: string;
  try {
    problem = findNonJson(value);
    json = problem === undefined ? JSON.stringify(value) : '';
  } catch (error) {
    // A getter (or proxy) that throws: the value returned, but it cannot be read to be saved.
    return { kind: 'unserializable', problem: whyNotJson(error) };
  }
  if (problem !== undefined) return { kind: 'unserializable', problem: `it holds ${problem}` };
  const bytes = Buffer.byteLength(json, 'utf8');
  if (persistResultContent && bytes > MAX_OUTPUT_JSON_BYTES) {
    return {
      kind: 'unserializable',
      problem: `its JSON is ${bytes} bytes, over the ${MAX_OUTPUT_JSON_BYTES} bytes an execution output may have (the service takes requests of 1 MiB)`,
    };
  }
  return { kind: 'returned', output: JSON.parse(json) as JsonValue };
}

/** The saved outcome of a target that threw `error`; its message is kept only with content persisted. */
export function thrownOutcome(error: unknown, persistResultContent: boolean): SavedOutcome {
  const name = readText(() => (error instanceof Error ? error.name : ''));
  const type = /\S/u.test(name) ? name.trim().slice(0, MAX_ERROR_TYPE) : 'Error';
  const info: ErrorInfo = { type };
  if (persistResultContent) {
    const message = readText(() => (error instanceof Error ? error.message : String(error)));
    if (message !== '') info.message = message.slice(0, MAX_ERROR_MESSAGE);
  }
  return { kind: 'threw', error: info };
}

/** The text `read` gives, or `''` when it throws or gives no string (a thrown value must not fail the runner). */
function readText(read: () => unknown): string {
  try {
    const text = read();
    return typeof text === 'string' ? text : '';
  } catch {
    return ''; // a getter of the thrown value that throws: the error is saved by its type alone
  }
}

/** The body of `completeExecution` for `outcome`. */
export function completionBody(
  outcome: SavedOutcome,
  traceEvidence: TraceEvidence,
  persistResultContent: boolean,
): CompleteBody {
  const evidence: Pick<CompleteBody, 'traceEvidence' | 'omissionReason'> =
    traceEvidence.mode === 'required'
      ? { traceEvidence: 'required' }
      : { traceEvidence: 'omit', omissionReason: traceEvidence.reason };
  switch (outcome.kind) {
    case 'returned':
      return {
        state: 'succeeded',
        ...(persistResultContent && 'output' in outcome ? { output: outcome.output } : {}),
        ...evidence,
      };
    case 'threw':
      return { state: 'error', error: outcome.error, ...evidence };
    case 'unserializable':
      return {
        state: 'error',
        error: { type: OUTCOME_SERIALIZATION_ERROR, message: unserializableMessage(outcome.problem) },
        ...evidence,
      };
  }
}

/** The message of an output that cannot be saved (names the problem, never the content). */
export function unserializableMessage(problem: string): string {
  return `The target returned a value that cannot be saved as JSON: ${problem}. The target is not invoked again for this case.`;
}
