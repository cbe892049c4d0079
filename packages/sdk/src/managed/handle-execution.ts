/**
 * One execution, once its request is checked: claim it with the service (refused: answer without
 * running anything), download and verify its input files, run the target once within the
 * execution budget, then — within the finalization budget — upload its output files, save its
 * outcome and flush telemetry, and answer.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { SvcApiError } from '../errors/svc-api-error.js';
import type { JsonValue } from '../evals/scorers/scorer-definitions.js';
import { inCaseSpan } from './case-span.js';
import { flushWithin } from './flush-within.js';
import { downloadInputFiles } from './input-files.js';
import type { ResolvedManagedHandlerOptions } from './managed-handler-options.js';
import { errorResponse, jsonResponse } from './managed-responses.js';
import type { ClaimAnswer, ManagedService } from './managed-service.js';
import type { ManagedHandlerSummary } from './managed-types.js';
import { OUTPUT_FILE_UPLOAD_ERROR, uploadOutputFiles } from './output-files.js';
import type { ManagedRequest } from './read-managed-request.js';
import { runTarget, type StartDeadline, timerDeadline } from './run-target.js';
import { outcomeOfTimeout, type PlannedOutcome } from './target-result.js';

/** How long the handler tries to claim an execution (retrying transient failures). */
export const CLAIM_BUDGET_MILLIS = 15_000;

type Finished =
  | { kind: 'answer'; response: Response; flush: false }
  | { kind: 'answer'; response: Response; flush: true; deadline: number }
  | { kind: 'saved'; summary: Omit<ManagedHandlerSummary, 'telemetryFlushed'>; deadline: number };

function statusOf(error: unknown): string {
  if (!SvcApiError.isInstance(error)) throw error;
  return error.status === undefined
    ? 'no answer'
    : `HTTP ${error.status}${error.code ? `, ${error.code}` : ''}`;
}

/** The answer to a refused claim. The target was not run. */
function claimRefused(error: unknown): Response {
  const shown = statusOf(error);
  const { status, code } = error as SvcApiError;
  if (status === 409 && code === 'already_claimed') {
    return errorResponse(
      409,
      'already_claimed',
      'The service refused the claim: this execution is claimed already. It runs once; the target was not run again.',
    );
  }
  if (status === 409) {
    return errorResponse(
      409,
      'conflict',
      'The service refused the claim: the execution is completed, replaced, its experiment finished, or it was not dispatched to a managed target. The target was not run.',
    );
  }
  if (status === 404) {
    return errorResponse(404, 'not_found', 'The service has no such execution. The target was not run.');
  }
  return errorResponse(
    502,
    'claim_failed',
    `The execution could not be claimed (${shown}); the target was not run. Check baseUrl and machineCredential.`,
  );
}

/** The body of the outcome request. */
function outcomeBody(claimId: string, planned: PlannedOutcome, artifactIds: readonly string[]) {
  return {
    claimId,
    state: planned.state,
    ...('output' in planned ? { output: planned.output } : {}),
    ...(planned.error === undefined ? {} : { error: planned.error }),
    ...(planned.usage === undefined ? {} : { usage: planned.usage }),
    ...(artifactIds.length === 0 ? {} : { files: artifactIds.map((artifactId) => ({ artifactId })) }),
  };
}

async function execute(
  options: ResolvedManagedHandlerOptions,
  claim: ClaimAnswer,
  traceId: string,
  startDeadline: StartDeadline,
) {
  const deadline = Date.now() + options.maxExecutionMillis;
  const inputs = await downloadInputFiles(claim.files, deadline);
  if (inputs.kind === 'timeout') return outcomeOfTimeout(options.maxExecutionMillis);
  if (inputs.kind === 'refused') return inputs.outcome;
  return runTarget(
    options.target,
    {
      // Parsed from the claim's JSON answer: JSON values, whatever the wire shape's `unknown` says.
      inputs: claim.inputs as JsonValue,
      config: claim.config as Record<string, JsonValue>,
      files: inputs.files,
      execution: {
        executionId: claim.executionId,
        experimentId: claim.experimentId,
        caseId: claim.caseId,
        attempt: claim.attempt,
      },
      traceId,
    },
    new AbortController(),
    deadline,
    options.maxExecutionMillis,
    startDeadline,
  );
}

/** Uploads the output files and saves the outcome, before `deadline`. */
async function finalize(
  service: ManagedService,
  claim: ClaimAnswer,
  planned: PlannedOutcome,
  deadline: number,
  span: Span | undefined,
): Promise<Finished> {
  const outcomeKey = randomUUID();
  let saving = planned;
  let artifactIds: string[] = [];
  if (planned.files.length > 0) {
    const uploads = await uploadOutputFiles(
      service,
      claim.executionId,
      claim.claimId,
      planned.files,
      outcomeKey,
      deadline,
    );
    if (uploads.ok) {
      artifactIds = uploads.artifactIds;
    } else {
      const { error: _error, ...rest } = planned;
      saving = {
        ...rest,
        state: 'error',
        error: {
          type: OUTPUT_FILE_UPLOAD_ERROR,
          message: `The outcome is saved without its output files: ${uploads.detail}.`,
        },
        files: [],
      };
    }
  }
  markSpan(span, saving);
  try {
    const saved = await service.saveOutcome(
      claim.executionId,
      outcomeBody(claim.claimId, saving, artifactIds),
      outcomeKey,
      deadline,
    );
    return {
      kind: 'saved',
      summary: {
        executionId: claim.executionId,
        state: saving.state,
        outcomeSaved: true,
        outputFiles: Array.isArray(saved.outputFiles) ? saved.outputFiles.length : artifactIds.length,
      },
      deadline,
    };
  } catch (error) {
    return {
      kind: 'answer',
      response: errorResponse(
        502,
        'outcome_not_saved',
        `The target ran, but its outcome could not be saved (${statusOf(error)}) within finalizationMillis. The execution stays claimed: it is not run again.`,
      ),
      flush: true,
      deadline,
    };
  }
}

function markSpan(span: Span | undefined, planned: PlannedOutcome): void {
  if (span === undefined) return;
  span.setAttribute('svc.eval.outcome', planned.state);
  if (planned.error !== undefined) span.setAttribute('error.type', planned.error.type);
  if (planned.state !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Claims, runs and finalizes the execution `request` names; answers the service. `startDeadline`
 * starts the target's deadline (a timer, unless a test gives its own).
 */
export async function handleExecution(
  options: ResolvedManagedHandlerOptions,
  service: ManagedService,
  request: ManagedRequest,
  startDeadline: StartDeadline = timerDeadline,
): Promise<Response> {
  const attributes: Record<string, string> = { 'svc.eval.execution_id': request.executionId };
  if (request.experimentId !== undefined) attributes['svc.eval.experiment_id'] = request.experimentId;
  if (request.caseId !== undefined) attributes['svc.eval.case_id'] = request.caseId;
  const finished = await inCaseSpan(options.tracer, attributes, async (span, traceId): Promise<Finished> => {
    let claim: ClaimAnswer;
    try {
      claim = await service.claim(
        request.executionId,
        traceId,
        randomUUID(),
        Date.now() + CLAIM_BUDGET_MILLIS,
      );
    } catch (error) {
      span?.setAttribute('svc.eval.claim', 'refused');
      span?.setStatus({ code: SpanStatusCode.ERROR });
      return { kind: 'answer', response: claimRefused(error), flush: false };
    }
    span?.setAttributes({
      'svc.eval.claim': 'claimed',
      'svc.eval.experiment_id': claim.experimentId,
      'svc.eval.case_id': claim.caseId,
    });
    const planned = await execute(options, claim, traceId, startDeadline);
    return finalize(service, claim, planned, Date.now() + options.finalizationMillis, span);
  });
  if (finished.kind === 'answer') {
    if (finished.flush) await flushWithin(options.flushTelemetry, finished.deadline);
    return finished.response;
  }
  const telemetryFlushed = await flushWithin(options.flushTelemetry, finished.deadline);
  const summary: ManagedHandlerSummary = { ...finished.summary, telemetryFlushed };
  return jsonResponse(200, summary);
}
