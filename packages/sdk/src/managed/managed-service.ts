/**
 * The handler's calls to the service, with the machine credential: claim, output-file
 * declarations and the outcome. Each call is retried after a transient failure (no answer, 408,
 * 429, 5xx) with the same idempotency key — so a call applied whose answer was lost returns its
 * first answer — until its deadline.
 * @module
 */
import { SvcApiError } from '../errors/svc-api-error.js';
import { createEvalTransport, type EvalCall } from '../evals/client/eval-transport.js';
import { isTransient } from '../evals/runner/transient-retry.js';
import type * as Wire from '../evals/types/wire-types.generated.js';
import { withRetries } from '../http/with-retries.js';

/** The longest wait for one call's answer. */
const MAX_CALL_MILLIS = 60_000;

/** Shortest time left worth another try. */
const MIN_CALL_MILLIS = 100;

/** Waits between tries: 250 ms after the first, then doubling up to 4 s. */
function retryDelay(attempt: number): number {
  return Math.min(250 * 2 ** (attempt - 1), 4_000);
}

/** An input file of a claimed case, with its signed download link. */
export type ClaimFile = Wire.ClaimFile;

/** The answer of a claim. */
export type ClaimAnswer = Wire.ClaimedExecution;

/** The answer of an output-file declaration: the artifact, and its upload link unless stored. */
export type DeclaredOutputFile = Wire.CreatedArtifact;

/** The answer of a saved outcome. */
export type SavedOutcomeAnswer = Wire.SavedOutcome;

function isClaimAnswer(value: unknown): value is ClaimAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  return (
    typeof answer.claimId === 'string' &&
    typeof answer.executionId === 'string' &&
    typeof answer.experimentId === 'string' &&
    typeof answer.caseId === 'string' &&
    typeof answer.attempt === 'number' &&
    'inputs' in answer &&
    typeof answer.config === 'object' &&
    answer.config !== null &&
    Array.isArray(answer.files) &&
    answer.files.every(
      (file: unknown) =>
        typeof file === 'object' &&
        file !== null &&
        typeof (file as ClaimFile).url === 'string' &&
        typeof (file as ClaimFile).sha256 === 'string' &&
        Number.isSafeInteger((file as ClaimFile).size),
    )
  );
}

/** Calls of the service with the machine credential. */
export class ManagedService {
  readonly #apiKey: string;
  readonly #baseUrl: string;

  constructor(machineCredential: string, baseUrl: string) {
    this.#apiKey = machineCredential;
    this.#baseUrl = baseUrl;
  }

  /** Sends `call`, retrying transient failures with the same key until `deadline` (ms since the epoch). */
  send<T>(call: EvalCall, deadline: number): Promise<T> {
    return withRetries(
      () => {
        const left = deadline - Date.now();
        const send = createEvalTransport({
          apiKey: this.#apiKey,
          baseUrl: this.#baseUrl,
          timeoutMillis: Math.max(MIN_CALL_MILLIS, Math.min(left, MAX_CALL_MILLIS)),
        });
        return send<T>(call);
      },
      {
        maxAttempts: Number.POSITIVE_INFINITY,
        retryable: (outcome) => !outcome.ok && isTransient(outcome.error),
        delayMillis: retryDelay,
        // another try only when it has at least MIN_CALL_MILLIS before the deadline
        deadline: deadline - MIN_CALL_MILLIS,
      },
    );
  }

  /** Claims `executionId`, recording its work in `traceId`. */
  async claim(
    executionId: string,
    traceId: string,
    idempotencyKey: string,
    deadline: number,
  ): Promise<ClaimAnswer> {
    const answer = await this.send<unknown>(
      {
        operation: 'claim',
        method: 'POST',
        path: `/api/v1/evals/executions/${encodeURIComponent(executionId)}/claim`,
        body: { traceId },
        idempotencyKey,
      },
      deadline,
    );
    if (!isClaimAnswer(answer)) {
      throw new SvcApiError(
        'claim: the service sent an answer that is not the expected JSON; check baseUrl.',
      );
    }
    return answer;
  }

  /** Declares an output file of the claimed execution. */
  declareOutputFile(
    executionId: string,
    body: { claimId: string; sha256: string; size: number; contentType: string; name: string },
    idempotencyKey: string,
    deadline: number,
  ): Promise<DeclaredOutputFile> {
    return this.send<DeclaredOutputFile>(
      {
        operation: 'output file',
        method: 'POST',
        path: `/api/v1/evals/executions/${encodeURIComponent(executionId)}/output-files`,
        body,
        idempotencyKey,
      },
      deadline,
    );
  }

  /** Saves the outcome of the claimed execution. */
  saveOutcome(executionId: string, body: Record<string, unknown>, idempotencyKey: string, deadline: number) {
    return this.send<SavedOutcomeAnswer>(
      {
        operation: 'outcome',
        method: 'POST',
        path: `/api/v1/evals/executions/${encodeURIComponent(executionId)}/outcome`,
        body,
        idempotencyKey,
      },
      deadline,
    );
  }
}
