/**
 * What an agent's trial ended with, as it is saved and sealed: its output (JSON), or an error. The
 * error types are the runners' (`OutcomeSerializationError`, `UncertainExecution`) and this
 * evaluator's (`AgentTimedOut`, `Interrupted`, `WorldUnavailable`, `TrialExpired`). An error the
 * agent threw keeps its message only when content is persisted; the evaluator's own messages are
 * always kept (they hold no content).
 * @module
 */
import type { JsonValue } from '@svc-run/sdk/evals';
import type { TrialRecord } from './trial-records.js';

/** A saved outcome. */
export type SavedTrialOutcome = NonNullable<TrialRecord['outcome']>;

/** Longest output JSON sealed: the service's 1 MiB request limit, less room for the rest. */
export const MAX_OUTPUT_JSON_BYTES = 1024 * 1024 - 16 * 1024;

const MAX_ERROR_MESSAGE = 4096;

/** An outcome of the evaluator's own making (its message holds no content). */
export function evaluatorError(type: string, message: string): SavedTrialOutcome {
  return { error: { type, message } };
}

/** The outcome of an agent that returned `value`. */
export function returnedOutcome(value: unknown): SavedTrialOutcome {
  if (value === undefined) return {};
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return evaluatorError(
      'OutcomeSerializationError',
      `runMyAgent returned a value that cannot be sealed as JSON (${why.slice(0, 200)})`,
    );
  }
  if (json === undefined) {
    return evaluatorError(
      'OutcomeSerializationError',
      `runMyAgent returned a ${typeof value}, which cannot be sealed as JSON`,
    );
  }
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_OUTPUT_JSON_BYTES) {
    return evaluatorError(
      'OutcomeSerializationError',
      `runMyAgent returned ${bytes} bytes of JSON, over the ${MAX_OUTPUT_JSON_BYTES} bytes a sealed output may have`,
    );
  }
  return { output: JSON.parse(json) as JsonValue };
}

/** The outcome of an agent that threw `error`: its type, and its message only with `persistContent`. */
export function thrownOutcome(error: unknown, persistContent: boolean): SavedTrialOutcome {
  let type = 'Error';
  let message = '';
  try {
    if (error instanceof Error) {
      type = /\S/u.test(error.name) ? error.name.trim().slice(0, 256) : 'Error';
      message = String(error.message);
    } else {
      message = String(error);
    }
  } catch {
    // A getter of the thrown value that throws: the error is saved by its type alone.
  }
  return {
    error:
      persistContent && message !== '' ? { type, message: message.slice(0, MAX_ERROR_MESSAGE) } : { type },
  };
}
