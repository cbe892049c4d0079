/**
 * Turns what a target did — returned a result, threw, ran out of time — into the outcome the
 * handler saves. A result that is not the documented shape, or whose output cannot be saved as
 * JSON, becomes an `error` outcome; the target is never invoked again.
 * @module
 */

import { describeKind } from '../diagnostics/describe-value.js';
import {
  MAX_OUTPUT_JSON_BYTES,
  OUTCOME_SERIALIZATION_ERROR,
  unserializableMessage,
} from '../evals/runner/target-outcome.js';
import { findNonJson } from '../evals/scorers/json-value.js';
import type { JsonValue } from '../evals/scorers/scorer-definitions.js';
import type {
  ManagedErrorInfo,
  ManagedOutcomeState,
  ManagedOutputFile,
  ManagedUsage,
} from './managed-types.js';

/** The outcome the handler saves. */
export interface PlannedOutcome {
  state: ManagedOutcomeState;
  /** Present when the target returned an output. */
  output?: JsonValue;
  error?: ManagedErrorInfo;
  usage?: ManagedUsage;
  files: ManagedOutputFile[];
}

/** Error type of a result that is not `{ output?, files?, usage?, outcome?, error? }` as documented. */
export const INVALID_RESULT_ERROR = 'InvalidTargetResultError';

/** Error type of a target that did not settle within `maxExecutionMillis`. */
export const EXECUTION_TIMEOUT_ERROR = 'ExecutionTimeoutError';

/** Most output files of one outcome. */
export const MAX_OUTPUT_FILES = 32;

/** Largest output file (25 MiB, the case-file bound). */
export const MAX_OUTPUT_FILE_BYTES = 25 * 1024 * 1024;

const MAX_ERROR_TYPE = 256;
const MAX_ERROR_MESSAGE = 4096;
const RESULT_FIELDS = new Set(['output', 'files', 'usage', 'outcome', 'error']);
const STATES = new Set<string>(['succeeded', 'error', 'cancelled']);
const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'];
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

class InvalidResult extends Error {}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Whether `name` is a file name the service accepts (the case-file name rule). */
export function isValidFileName(name: string): boolean {
  return (
    name.length >= 1 &&
    name.length <= 255 &&
    !/[/\\]/u.test(name) &&
    ![...name].some((character) => character.charCodeAt(0) < 0x20 || character === '\u007f') &&
    name !== '.' &&
    name !== '..' &&
    name.trim() === name
  );
}

function errorInfo(value: unknown): ManagedErrorInfo {
  if (!isPlainObject(value) || typeof value.type !== 'string' || !/\S/u.test(value.type)) {
    throw new InvalidResult('error must be an object { type, message? } with a nonblank type');
  }
  if (value.message !== undefined && typeof value.message !== 'string') {
    throw new InvalidResult('error.message must be a string when set');
  }
  const info: ManagedErrorInfo = { type: value.type.trim().slice(0, MAX_ERROR_TYPE) };
  if (value.message !== undefined && value.message !== '')
    info.message = value.message.slice(0, MAX_ERROR_MESSAGE);
  return info;
}

function usageOf(value: unknown): ManagedUsage {
  if (!isPlainObject(value)) throw new InvalidResult(`usage must be an object; it is ${describeKind(value)}`);
  const usage: Record<string, number> = {};
  for (const [field, amount] of Object.entries(value)) {
    if (amount === undefined) continue;
    if (TOKEN_FIELDS.includes(field)) {
      if (!Number.isSafeInteger(amount) || (amount as number) < 0)
        throw new InvalidResult(`usage.${field} must be an integer ≥ 0`);
    } else if (field === 'costUsd') {
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
        throw new InvalidResult('usage.costUsd must be a finite number ≥ 0');
    } else {
      throw new InvalidResult(
        `usage has an unknown field ${JSON.stringify(field).slice(0, 64)} (known: ${[...TOKEN_FIELDS, 'costUsd'].join(', ')})`,
      );
    }
    usage[field] = amount as number;
  }
  return usage;
}

function filesOf(value: unknown): ManagedOutputFile[] {
  if (!Array.isArray(value)) throw new InvalidResult(`files must be an array; it is ${describeKind(value)}`);
  if (value.length > MAX_OUTPUT_FILES) {
    throw new InvalidResult(`files has ${value.length} files; an outcome has at most ${MAX_OUTPUT_FILES}`);
  }
  const names = new Set<string>();
  return value.map((file: unknown, index) => {
    const at = `files[${index}]`;
    if (!isPlainObject(file)) throw new InvalidResult(`${at} must be an object { name, contentType, data }`);
    if (typeof file.name !== 'string' || !isValidFileName(file.name)) {
      throw new InvalidResult(
        `${at}.name must be a file name of 1 to 255 characters: no / or \\, no control characters, no surrounding spaces, not . or ..`,
      );
    }
    if (names.has(file.name)) throw new InvalidResult(`${at}.name repeats the name of an earlier file`);
    names.add(file.name);
    if (
      typeof file.contentType !== 'string' ||
      file.contentType.length > 255 ||
      !MEDIA_TYPE.test(file.contentType)
    ) {
      throw new InvalidResult(`${at}.contentType must be a media type such as application/pdf`);
    }
    if (!(file.data instanceof Uint8Array)) {
      throw new InvalidResult(
        `${at}.data must be a Uint8Array or a Buffer; it is ${describeKind(file.data)}`,
      );
    }
    if (file.data.byteLength < 1 || file.data.byteLength > MAX_OUTPUT_FILE_BYTES) {
      throw new InvalidResult(`${at}.data must be 1 byte to 25 MiB; it is ${file.data.byteLength} bytes`);
    }
    return { name: file.name, contentType: file.contentType, data: file.data };
  });
}

function invalid(message: string): PlannedOutcome {
  return {
    state: 'error',
    error: {
      type: INVALID_RESULT_ERROR,
      message: `The target's result cannot be saved as returned: ${message}. The target is not invoked again.`,
    },
    files: [],
  };
}

/** The outcome of a target that returned `result`. */
export function outcomeOfResult(result: unknown): PlannedOutcome {
  try {
    if (!isPlainObject(result)) {
      throw new InvalidResult(
        `the target must return an object { output?, files?, usage?, outcome?, error? }; it returned ${describeKind(result)}`,
      );
    }
    for (const field of Object.keys(result)) {
      if (!RESULT_FIELDS.has(field)) {
        throw new InvalidResult(
          `it has an unknown field ${JSON.stringify(field).slice(0, 64)} (the fields are output, files, usage, outcome, error)`,
        );
      }
    }
    const state = result.outcome ?? 'succeeded';
    if (typeof state !== 'string' || !STATES.has(state)) {
      throw new InvalidResult('outcome must be succeeded, error or cancelled');
    }
    const planned: PlannedOutcome = { state: state as ManagedOutcomeState, files: [] };
    if (result.error !== undefined) {
      if (state === 'succeeded') throw new InvalidResult('error is not allowed with the outcome succeeded');
      planned.error = errorInfo(result.error);
    } else if (state === 'error') {
      planned.error = { type: 'TargetError' };
    }
    if (result.usage !== undefined) planned.usage = usageOf(result.usage);
    if (result.files !== undefined) planned.files = filesOf(result.files);
    if (result.output !== undefined) {
      const problem = findNonJson(result.output);
      const json = problem === undefined ? JSON.stringify(result.output) : undefined;
      const bytes = json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
      if (problem !== undefined || bytes > MAX_OUTPUT_JSON_BYTES) {
        return {
          state: 'error',
          error: {
            type: OUTCOME_SERIALIZATION_ERROR,
            message: unserializableMessage(
              problem === undefined
                ? `its JSON is ${bytes} bytes, over the ${MAX_OUTPUT_JSON_BYTES} bytes an execution output may have (the service takes requests of 1 MiB)`
                : `it holds ${problem}`,
            ),
          },
          files: [],
        };
      }
      planned.output = JSON.parse(json!) as JsonValue;
    }
    return planned;
  } catch (error) {
    if (error instanceof InvalidResult) return invalid(error.message);
    throw error;
  }
}

/** The outcome of a target that threw `error`: `error`, with the error's name as its type. */
export function outcomeOfThrow(error: unknown): PlannedOutcome {
  const name = error instanceof Error ? error.name : '';
  const info: ManagedErrorInfo = { type: /\S/u.test(name) ? name.trim().slice(0, MAX_ERROR_TYPE) : 'Error' };
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (message !== '') info.message = message.slice(0, MAX_ERROR_MESSAGE);
  return { state: 'error', error: info, files: [] };
}

/** The outcome of a target still running when `maxExecutionMillis` ran out: `cancelled`. */
export function outcomeOfTimeout(maxExecutionMillis: number): PlannedOutcome {
  return {
    state: 'cancelled',
    error: {
      type: EXECUTION_TIMEOUT_ERROR,
      message: `The execution did not end within maxExecutionMillis (${maxExecutionMillis} ms): its signal was aborted and it is not run again.`,
    },
    files: [],
  };
}
