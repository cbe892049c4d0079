/**
 * Options of the local runners `runExperiment` and `rescore`, and their validation: one function
 * per options object, each message naming the option, the bad value and the rule.
 * @module
 */
import type { SpanHandle } from '../../client/span-options.js';
import { SvcClient } from '../../client/svc-client.js';
import { describeKind, describeValue } from '../../diagnostics/describe-value.js';
import { transportInternals } from '../../export/svc-transport.js';
import { validateIntegerOption } from '../../options/integer-option.js';
import type { EvaluationClient } from '../client/evaluation-client.js';
import type { LocalScorer } from '../scorers/define-local-scorer.js';
import { requireOptionsObject } from '../scorers/require-options-object.js';
import { validateSchemaTimeoutMillis, validateScorers } from '../scorers/score-locally-options.js';
import type { TargetItem } from './target-item.js';

/** Fewest and most cases (or items) a runner works on at once. */
export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 16;

/** Longest `traceEvidence.reason`, as the service bounds `omissionReason`. */
export const MAX_OMISSION_REASON = 1000;

/** Options both runners take. */
export interface CommonRunnerOptions {
  /** The evaluation client (a Read-and-write key: the runner writes executions and results). */
  client: EvaluationClient;
  /**
   * A directory dedicated to this run (created when missing): the runner saves the intent of every
   * remote call there before making it, and its outcome after. Rerun with the same directory to
   * resume. Keep it out of version control (the runner writes a `.gitignore` into it).
   */
  checkpointDirectory: string;
  /**
   * Required. `true`: the service keeps execution outputs, target error messages, and score
   * explanations and evidence. `false`: executions are completed without their output, errors keep
   * only their type, and results keep their status and metrics with a fixed explanation.
   */
  persistResultContent: boolean;
  /** Local scorers made by `defineLocalScorer`: a `local_code` scorer version runs the one of its digest. */
  scorers?: readonly LocalScorer[];
  /** Cases (or items) worked on at once: integer 1 to 16, default 1. */
  concurrency?: number;
  /** Bound of one JSON Schema validation in milliseconds: integer 100 to 60000, default 2000. */
  schemaTimeoutMillis?: number;
}

/**
 * What a target receives besides the case's inputs: the configuration and what the agent may see
 * of the case. Never what only evaluators may: `expected`, the case's `metadata`, the files of
 * evaluator-only roles, scorer definitions.
 */
export interface TargetContext {
  /** The experiment's configuration (`createExperiment`'s `config`). */
  config: Record<string, unknown>;
  /** The case: its identity, `inputs`, and the files the agent sees. */
  item: TargetItem;
  /** The span the case runs in; nest the target's own spans under it. */
  span: SpanHandle;
}

/** How the trace of each case becomes evidence of its execution. */
export type TraceEvidence = { mode: 'required' } | { mode: 'omit'; reason: string };

/** Options of `runExperiment`. */
export interface RunExperimentOptions extends CommonRunnerOptions {
  /** The tracing client (made by `createSvc`), of the same project and origin as `client`. */
  svc: SvcClient;
  /** The experiment to run: every case of its dataset version. */
  experimentId: string;
  /**
   * `{ mode: 'required' }`: the tracing client is flushed after each case and the service snapshots
   * the case's stored trace when the execution completes. `{ mode: 'omit', reason }`: no snapshot.
   */
  traceEvidence: TraceEvidence;
  /**
   * Runs one case: returns a JSON value, `undefined` (no output) or a promise of either. A throw
   * completes the execution in state `error`.
   */
  target(inputs: unknown, context: TargetContext): unknown;
  /**
   * Runs again, once, the cases this checkpoint directory ran that ended in error: an execution
   * completed in state `error` (the target threw or returned a value that is not JSON), or one
   * that may have completed (the runner stopped while the target ran; see
   * `UncertainExecutionError`). Each gets a new attempt replacing that execution; its results are
   * those of the new attempt. Default false. A rerun after a crash resumes the same retry: a case
   * already retried is not retried again. The experiment must be open (see `finishWithErrors`).
   */
  retryErrors?: boolean;
  /**
   * Whether to finish the experiment when every case has an outcome but some ended in state
   * `error` (default true). `false` leaves such an experiment open, so that a later run with
   * `retryErrors` can run those cases again; an experiment whose cases all succeeded is finished
   * either way.
   */
  finishWithErrors?: boolean;
  /**
   * Asked, on a rerun, about a case whose target was invoked but whose outcome was not saved (the
   * runner stopped while the target ran): whether the target may have begun its work. Return
   * `false` only when the target keeps a durable record of its own, written before its work
   * begins, and that record says it never began (`svc eval`: the agent command was never
   * spawned); the case then runs in a new attempt replacing that execution. Without this option,
   * or when it returns `true`, the case is uncertain (`UncertainExecutionError`) and its target is
   * not invoked again. `traceId` is the trace of the attempt, as the target saw it
   * (`context.span.traceId`).
   */
  mayHaveRun?(attempt: { caseId: string; traceId: string }): boolean | Promise<boolean>;
}

/** Options of `rescore`. */
export interface RescoreOptions extends CommonRunnerOptions {
  /** The evaluation run to score (e.g. one made by `createEvaluationRun` over saved subject IDs). */
  runId: string;
}

/** {@link CommonRunnerOptions} checked, with defaults applied. */
export interface ResolvedCommonOptions {
  client: EvaluationClient;
  checkpointDirectory: string;
  persistResultContent: boolean;
  scorers: readonly LocalScorer[];
  concurrency: number;
  schemaTimeoutMillis: number;
}

/** {@link RunExperimentOptions} checked, with defaults applied. */
export interface ResolvedRunExperimentOptions extends ResolvedCommonOptions {
  svc: SvcClient;
  experimentId: string;
  traceEvidence: TraceEvidence;
  target: RunExperimentOptions['target'];
  retryErrors: boolean;
  finishWithErrors: boolean;
  mayHaveRun: RunExperimentOptions['mayHaveRun'];
}

/** {@link RescoreOptions} checked, with defaults applied. */
export interface ResolvedRescoreOptions extends ResolvedCommonOptions {
  runId: string;
}

const COMMON_KEYS = [
  'client',
  'checkpointDirectory',
  'persistResultContent',
  'scorers',
  'concurrency',
  'schemaTimeoutMillis',
] as const;
const EXPERIMENT_KEYS = new Set<string>([
  ...COMMON_KEYS,
  'svc',
  'experimentId',
  'traceEvidence',
  'target',
  'retryErrors',
  'finishWithErrors',
  'mayHaveRun',
]);
const RESCORE_KEYS = new Set<string>([...COMMON_KEYS, 'runId']);

/** The client methods the runners call. */
const CLIENT_METHODS = [
  'checkConnection',
  'getExperiment',
  'listExperimentItems',
  'startExecution',
  'completeExecution',
  'finishExperiment',
  'getScorerVersion',
  'getEvaluationRun',
  'listEvaluationItems',
  'listResults',
  'getSubject',
  'submitResults',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function rejectUnknownKeys(given: Record<string, unknown>, known: Set<string>, runner: string): void {
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      const hint = key === 'target' ? ' (rescore scores saved subjects; it runs no target)' : '';
      throw new TypeError(
        `${JSON.stringify(key).slice(0, 70)} is not an option of ${runner}${hint}; its options are ${[...known].join(', ')}`,
      );
    }
  }
}

function validateClient(value: unknown): EvaluationClient {
  const client = value as Record<string, unknown> | null | undefined;
  const missing = CLIENT_METHODS.find((method) => typeof client?.[method] !== 'function');
  if (
    typeof value !== 'object' ||
    value === null ||
    missing !== undefined ||
    typeof client?.baseUrl !== 'string'
  ) {
    throw new TypeError(
      `client must be an evaluation client made by createEvaluationClient (with a Read-and-write key); got ${describeKind(value)}`,
    );
  }
  return value as EvaluationClient;
}

function validateCheckpointDirectory(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) {
    throw new TypeError(
      `checkpointDirectory must be a nonempty path of a directory dedicated to this run; got ${describeValue(value)}`,
    );
  }
  return value;
}

function validatePersistResultContent(value: unknown): boolean {
  if (typeof value !== 'boolean') {
    throw new TypeError(
      `persistResultContent must be true or false (required: whether the service keeps execution outputs and score explanations); got ${describeValue(value)}`,
    );
  }
  return value;
}

function validateId(name: string, value: unknown, kind: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new TypeError(`${name} must be the ID of ${kind} (a lowercase UUID); got ${describeValue(value)}`);
  }
  return value;
}

function validateSvc(value: unknown): SvcClient {
  if (!(value instanceof SvcClient) || transportInternals(value.transport) === undefined) {
    throw new TypeError(
      `svc must be a tracing client made by createSvc (its spans are the cases' trace evidence); got ${describeKind(value)}`,
    );
  }
  return value;
}

function validateTraceEvidence(value: unknown): TraceEvidence {
  const given = value as { mode?: unknown; reason?: unknown } | null | undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    if (given?.mode === 'required' && given.reason === undefined) return { mode: 'required' };
    if (given?.mode === 'omit') {
      const { reason } = given;
      if (typeof reason === 'string' && /\S/u.test(reason) && reason.length <= MAX_OMISSION_REASON) {
        return { mode: 'omit', reason };
      }
      throw new TypeError(
        `traceEvidence.reason must be a string of 1 to ${MAX_OMISSION_REASON} characters with non-whitespace content (why the traces are not evidence); got ${describeValue(reason)}`,
      );
    }
  }
  throw new TypeError(
    `traceEvidence must be { mode: 'required' } or { mode: 'omit', reason }; got ${
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? `an object with mode ${describeValue(given?.mode)}${given?.mode === 'required' ? ' and a reason' : ''}`
        : describeValue(value)
    }`,
  );
}

function validateFlag(name: string, value: unknown, fallback: boolean, rule: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new TypeError(`${name} must be true or false (${rule}); got ${describeValue(value)}`);
  }
  return value;
}

function validateCommon(given: Record<string, unknown>): ResolvedCommonOptions {
  return {
    client: validateClient(given.client),
    checkpointDirectory: validateCheckpointDirectory(given.checkpointDirectory),
    persistResultContent: validatePersistResultContent(given.persistResultContent),
    scorers: validateScorers(given.scorers),
    concurrency: validateIntegerOption(
      'concurrency',
      given.concurrency,
      { min: MIN_CONCURRENCY, max: MAX_CONCURRENCY, fallback: MIN_CONCURRENCY },
      describeValue,
    ),
    schemaTimeoutMillis: validateSchemaTimeoutMillis(given.schemaTimeoutMillis),
  };
}

/**
 * Checks the options of `runExperiment` and applies defaults.
 *
 * @throws TypeError naming the option, the bad value and the rule; also when `svc` and `client`
 *   send to different origins.
 */
export function validateRunExperimentOptions(options: unknown): ResolvedRunExperimentOptions {
  const given = requireOptionsObject(
    options,
    '{ client, svc, experimentId, checkpointDirectory, persistResultContent, traceEvidence, target, scorers?, concurrency?, schemaTimeoutMillis?, retryErrors?, finishWithErrors?, mayHaveRun? }',
  );
  rejectUnknownKeys(given, EXPERIMENT_KEYS, 'runExperiment');
  const common = validateCommon(given);
  const svc = validateSvc(given.svc);
  const experimentId = validateId('experimentId', given.experimentId, 'an experiment');
  const traceEvidence = validateTraceEvidence(given.traceEvidence);
  if (typeof given.target !== 'function') {
    throw new TypeError(
      `target must be a function (inputs, { config, item, span }) returning a JSON value, undefined, or a promise of either; got ${describeValue(given.target)}`,
    );
  }
  if (given.mayHaveRun !== undefined && typeof given.mayHaveRun !== 'function') {
    throw new TypeError(
      `mayHaveRun must be a function ({ caseId, traceId }) returning a boolean or a promise of one; got ${describeValue(given.mayHaveRun)}`,
    );
  }
  const svcOrigin = transportInternals(svc.transport)!.options.baseUrl;
  if (svcOrigin !== common.client.baseUrl) {
    throw new TypeError(
      `svc and client must use the same origin (the traces are the executions' evidence); svc sends to ${svcOrigin}, client to ${common.client.baseUrl}`,
    );
  }
  return {
    ...common,
    svc,
    experimentId,
    traceEvidence,
    target: given.target as RunExperimentOptions['target'],
    retryErrors: validateFlag(
      'retryErrors',
      given.retryErrors,
      false,
      'default false: run again the cases that ended in error',
    ),
    finishWithErrors: validateFlag(
      'finishWithErrors',
      given.finishWithErrors,
      true,
      'default true: finish the experiment even when cases ended in error',
    ),
    mayHaveRun: given.mayHaveRun as RunExperimentOptions['mayHaveRun'],
  };
}

/**
 * Checks the options of `rescore` and applies defaults.
 *
 * @throws TypeError naming the option, the bad value and the rule.
 */
export function validateRescoreOptions(options: unknown): ResolvedRescoreOptions {
  const given = requireOptionsObject(
    options,
    '{ client, runId, checkpointDirectory, persistResultContent, scorers?, concurrency?, schemaTimeoutMillis? }',
  );
  rejectUnknownKeys(given, RESCORE_KEYS, 'rescore');
  const common = validateCommon(given);
  return { ...common, runId: validateId('runId', given.runId, 'an evaluation run') };
}
