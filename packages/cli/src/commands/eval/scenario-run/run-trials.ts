/**
 * Runs the trials of a scenario run that are not sealed yet: for each (case, trial), start it (a
 * fresh world and its token), call `runMyAgent` once inside a span of the tracing client, flush the
 * trace, seal the outcome. Crash-safe through the trial records (`trial-records.ts`): a rerun, or a
 * worker taking the run over, replays each saved step with its idempotency key and never calls an
 * agent twice for a trial whose agent may have run; such a trial is sealed with an
 * `UncertainExecution` error. A trial open on the service that this directory did not start (another
 * process started it; its agent may have run) is sealed the same way.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import type { SpanHandle, SvcClient } from '@svc-run/sdk';
import {
  type EvaluationClient,
  type ScenarioRun,
  type StartedTrial,
  SvcApiError,
  type Trial,
} from '@svc-run/sdk/evals';
import type { EvalHooks } from '../eval-hooks.js';
import { withRetry } from '../transient-retry.js';
import { openAgentContext } from './agent-context.js';
import type { RunMyAgent } from './agent-file.js';
import { evaluatorError, returnedOutcome, type SavedTrialOutcome, thrownOutcome } from './trial-outcome.js';
import { RecordsWriter, readTrialRecords, sealBody, type TrialRecord, trialKey } from './trial-records.js';

/** The span of a trial's agent work. */
export const TRIAL_SPAN_NAME = 'scenario trial';
/** The span of a trial's seal (under the trial's span): its outcome. */
export const SEAL_SPAN_NAME = 'scenario seal';

/** How a trial ended, as the progress display shows it. */
export interface EndedTrial {
  caseKey: string;
  trial: number;
  /** `null` while graded checks are pending. */
  outcome: Trial['outcome'];
  failedChecks: string[];
  error?: { type: string; message?: string };
}

/** Options of {@link runTrials}. */
export interface RunTrialsOptions {
  client: EvaluationClient;
  svc: SvcClient;
  runMyAgent: RunMyAgent;
  /** The run's summary, read just before (which trials the service holds, in which state). */
  run: ScenarioRun;
  /** The run's directory: its trial records are kept there. */
  directory: string;
  /** Keep the messages of errors the agent threw (content) on the service. */
  persistContent: boolean;
  /** How long `runMyAgent` may take per trial. */
  timeoutMillis: number;
  /** Trials run at once, 1 to 16. */
  concurrency: number;
  /** When aborted: no trial starts, the agents running are told to stop and their trials sealed as interrupted. */
  interrupt: AbortSignal;
  hooks: EvalHooks;
  /** A trial ended: sealed now, or before (a resumed run tells those too, with `resumed`). */
  onTrialEnd?(ended: EndedTrial, resumed: boolean): void;
}

/** The trials of the run not sealed yet, in case order then trial order. */
function slotsToRun(run: ScenarioRun) {
  return run.cases.flatMap((item) => item.trials.map((slot) => ({ caseKey: item.caseKey, ...slot })));
}

/**
 * Runs every trial of `options.run` not sealed yet. Resolves when each is sealed (or, after an
 * interruption, when the trials under way are).
 *
 * @throws the first failure that is not a trial's own (the service refusing a start or a seal for
 *   good, the records not being saved); trials under way are finished first.
 */
export async function runTrials(options: RunTrialsOptions): Promise<void> {
  const writer = new RecordsWriter(
    options.directory,
    await readTrialRecords(options.directory, options.run.id),
  );
  const pending = slotsToRun(options.run).filter((slot) => {
    const record = writer.records.trials[trialKey(slot.caseKey, slot.trial)];
    if (slot.state !== 'sealed') return true;
    options.onTrialEnd?.(
      { caseKey: slot.caseKey, trial: slot.trial, outcome: slot.outcome, failedChecks: slot.failedChecks },
      true,
    );
    if (record !== undefined && record.sealed === undefined) {
      record.sealed = { outcome: slot.outcome, failedChecks: slot.failedChecks };
    }
    return false;
  });
  await writer.save();
  let next = 0;
  let failure: unknown;
  const lane = async () => {
    while (failure === undefined && !options.interrupt.aborted && next < pending.length) {
      const slot = pending[next++]!;
      try {
        await runTrial(options, writer, slot);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, pending.length) }, lane));
  if (failure !== undefined) throw failure;
}

type Slot = ReturnType<typeof slotsToRun>[number];

async function runTrial(options: RunTrialsOptions, writer: RecordsWriter, slot: Slot): Promise<void> {
  const { client, hooks } = options;
  const key = trialKey(slot.caseKey, slot.trial);
  const hookKey = `${slot.caseKey}#${slot.trial}`;
  const save = () => writer.save();
  let record = writer.records.trials[key];

  if (record === undefined && slot.state === 'open' && slot.trialId !== null) {
    // Started by another process (another checkpoint directory, a worker that lost its lease): its
    // agent may have run. It is sealed with an error, never run again.
    record = {
      caseKey: slot.caseKey,
      trial: slot.trial,
      start: { key: '', traceId: slot.traceId ?? '', spanId: '' },
      trialId: slot.trialId,
      agentInvoked: true,
      outcome: evaluatorError(
        'UncertainExecution',
        'the trial was started by another process and was not sealed; its agent may have run, so it is not run again',
      ),
      seal: { key: randomUUID() },
    };
    writer.records.trials[key] = record;
    await save();
  }

  if (record?.outcome === undefined) {
    if (record?.agentInvoked === true) {
      record.outcome = evaluatorError(
        'UncertainExecution',
        'svc eval stopped while the agent ran; the agent may have completed, so it is not run again',
      );
      record.seal = { key: randomUUID() };
      await save();
    } else {
      record = await runAgent(options, writer, slot, record);
      if (record.sealed !== undefined) return; // sealed before: nothing to do
      await hooks.step?.('after-agent', hookKey);
    }
  }

  // The trace first, so the viewer has the agent's work when the seal's grading shows.
  await options.svc.flush().catch(() => undefined);
  const sealed = await sealOnce(client, record);
  record.sealed = { outcome: sealed?.outcome ?? null, failedChecks: sealed?.failedChecks ?? [] };
  if (sealed === undefined) record.sealedElsewhere = true;
  await save();
  if (sealed !== undefined) recordSeal(options.svc, record, sealed);
  await hooks.step?.('after-seal', hookKey);
  options.onTrialEnd?.(
    {
      caseKey: slot.caseKey,
      trial: slot.trial,
      outcome: record.sealed.outcome as Trial['outcome'],
      failedChecks: record.sealed.failedChecks,
      ...(record.outcome?.error === undefined ? {} : { error: record.outcome.error }),
    },
    false,
  );
}

/**
 * The seal in the trial's trace: a `scenario seal` span under the trial's span, with the outcome,
 * the failed checks' names and the seal's digest, so the trace shows the outcome beside the agent's
 * work. Exported with the next flush.
 */
function recordSeal(svc: SvcClient, record: TrialRecord, sealed: Trial): void {
  if (!/^[0-9a-f]{32}$/.test(record.start.traceId) || !/^[0-9a-f]{16}$/.test(record.start.spanId)) return;
  const parentContext = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: record.start.traceId,
    spanId: record.start.spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
  svc.withSpan(SEAL_SPAN_NAME, () => undefined, {
    parentContext,
    attributes: {
      'svc.scenario.trial_id': sealed.id,
      'svc.scenario.outcome': sealed.outcome ?? 'pending',
      'svc.scenario.failed_checks': sealed.failedChecks,
      'svc.scenario.seal': sealed.seal ?? '',
      ...(sealed.error === undefined ? {} : { 'svc.scenario.error_type': sealed.error.type }),
    },
  });
}

/** Seals with the saved intent; `undefined` when another process sealed the trial first. */
async function sealOnce(client: EvaluationClient, record: TrialRecord): Promise<Trial | undefined> {
  try {
    return await withRetry(() =>
      client.sealTrial(record.trialId!, { idempotencyKey: record.seal!.key, ...sealBody(record) }),
    );
  } catch (error) {
    if (SvcApiError.isInstance(error) && error.status === 409 && error.code === 'already_sealed') {
      return undefined;
    }
    throw error;
  }
}

/**
 * Starts the trial (or replays its saved start) and calls the agent, inside the trial's span; saves
 * the outcome and the seal's intent. A resumed trial's span continues the trace it was started with.
 */
async function runAgent(
  options: RunTrialsOptions,
  writer: RecordsWriter,
  slot: Slot,
  saved: TrialRecord | undefined,
): Promise<TrialRecord> {
  const { client, svc, run } = options;
  const save = () => writer.save();
  const parentContext =
    saved === undefined
      ? undefined
      : trace.setSpanContext(ROOT_CONTEXT, {
          traceId: saved.start.traceId,
          spanId: saved.start.spanId,
          traceFlags: TraceFlags.SAMPLED,
          isRemote: true,
        });
  let record = saved;
  let outcome: SavedTrialOutcome | undefined;
  try {
    await svc.withSpan(
      TRIAL_SPAN_NAME,
      async (span: SpanHandle) => {
        if (record === undefined) {
          record = {
            caseKey: slot.caseKey,
            trial: slot.trial,
            start: { key: randomUUID(), traceId: span.traceId, spanId: span.spanId },
          };
          writer.records.trials[trialKey(slot.caseKey, slot.trial)] = record;
          await save();
        }
        const current = record;
        const started: StartedTrial = await withRetry(() =>
          client.startTrial(run.id, {
            idempotencyKey: current.start.key,
            caseKey: slot.caseKey,
            trial: slot.trial,
            traceId: current.start.traceId,
          }),
        );
        current.trialId = started.trial.id;
        span.span.setAttribute('svc.scenario.trial_id', started.trial.id);
        span.setInput(started.inputs);
        if (started.trial.state === 'sealed') {
          current.sealed = { outcome: started.trial.outcome, failedChecks: started.trial.failedChecks };
          await save();
          return;
        }
        if (started.token === null) {
          outcome = evaluatorError('TrialExpired', 'the trial expired before its agent was called');
          return;
        }
        outcome = await callAgent(options, started, started.token, span, async () => {
          current.agentInvoked = true;
          await save(); // the trial and the intent to call the agent, in one write
          await options.hooks.step?.('before-agent', `${slot.caseKey}#${slot.trial}`);
        });
        if (outcome.error === undefined && outcome.output !== undefined) span.setOutput(outcome.output);
        if (outcome.error !== undefined) throw new AgentError(outcome.error.type);
      },
      {
        ...(parentContext === undefined ? {} : { parentContext }),
        attributes: {
          'svc.scenario.run_id': run.id,
          'svc.scenario.case_key': slot.caseKey,
          'svc.scenario.trial': slot.trial,
        },
      },
    );
  } catch (error) {
    if (!(error instanceof AgentError)) throw error; // the evaluator's own failure
  }
  const current = record!;
  if (current.sealed !== undefined) return current;
  current.outcome = outcome!;
  current.seal = { key: randomUUID() };
  await save(); // the outcome and the seal's intent, in one write
  return current;
}

/** Marks the trial's span as failed with the outcome's error type (its message stays out of spans). */
class AgentError extends Error {
  override readonly name: string;
  constructor(type: string) {
    super(`the agent's trial ended with ${type}`);
    this.name = type;
  }
}

/**
 * Opens the agent's context, runs `beforeCall` (the durable intent), then calls the agent once,
 * bounded by the timeout and the interruption.
 */
async function callAgent(
  options: RunTrialsOptions,
  started: StartedTrial,
  token: string,
  span: SpanHandle,
  beforeCall: () => Promise<void>,
): Promise<SavedTrialOutcome> {
  const stop = new AbortController();
  let opened: Awaited<ReturnType<typeof openAgentContext>>;
  try {
    opened = await openAgentContext({ started, token, svc: options.svc, span, signal: stop.signal });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return evaluatorError(
      'WorldUnavailable',
      `the world's MCP endpoint could not be reached: ${why.slice(0, 300)}`,
    );
  }
  try {
    await beforeCall();
    let timer: NodeJS.Timeout | undefined;
    let onInterrupt: (() => void) | undefined;
    const ended = new Promise<SavedTrialOutcome>((resolve) => {
      timer = setTimeout(() => {
        resolve(
          evaluatorError(
            'AgentTimedOut',
            `runMyAgent did not return within ${options.timeoutMillis / 1000} s (--timeout)`,
          ),
        );
      }, options.timeoutMillis);
      onInterrupt = () =>
        resolve(
          evaluatorError('Interrupted', 'svc eval was stopped (Ctrl-C or SIGTERM) while the agent ran'),
        );
      if (options.interrupt.aborted) onInterrupt();
      else options.interrupt.addEventListener('abort', onInterrupt, { once: true });
    });
    const ran = (async () => {
      try {
        return returnedOutcome(await options.runMyAgent(started.inputs, opened.context));
      } catch (error) {
        return thrownOutcome(error, options.persistContent);
      }
    })();
    try {
      // An agent that ignores the signal goes on after its trial ends; svc exits once its command
      // is over whatever timers or sockets it left (`bin.ts`).
      return await Promise.race([ran, ended]);
    } finally {
      clearTimeout(timer);
      if (onInterrupt !== undefined) options.interrupt.removeEventListener('abort', onInterrupt);
      stop.abort(); // an agent still running is told to stop; its world closes with the seal
    }
  } finally {
    await opened.close();
  }
}
