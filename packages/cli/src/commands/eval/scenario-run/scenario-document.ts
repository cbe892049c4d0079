/**
 * The scenario command output document (`svc eval --scenario … --json`): each case with its
 * verdict, its trials (outcome, the failed checks by name, never what they expected; the error of
 * an errored trial; the trace), pass^k, the totals and the run's viewer link, `mode: "scenario"`.
 * Its JSON Schema is `scenario-eval-document.schema.json` beside this file, published as
 * `@svc-run/cli/scenario-eval-document.schema.json`.
 * @module
 */
import type { EvaluationClient, ScenarioRun, ScenarioTrialSlot, ScenarioVersion } from '@svc-run/sdk/evals';
import type { BaselineComparison } from '../baseline.js';
import type { CaseState } from '../case-states.js';
import { withRetry } from '../transient-retry.js';

/** A trial of a case: the run summary's slot, with its trace's link and why it errored. */
export interface ScenarioDocumentTrial extends ScenarioTrialSlot {
  traceUrl: string | null;
  /** Checks that could not be graded (a hosted judge failed, no judge model): the trial errored. */
  erroredChecks: string[];
  /** Why the trial errored: the agent's error type (its message only with content kept), or the evaluator's. */
  error?: { type: string; message?: string };
}

/** A case of the document. */
export interface ScenarioDocumentCase {
  caseKey: string;
  caseId: string;
  name?: string;
  /** PASS when every trial passed, FAIL when one failed, ERROR when one errored; PENDING while grading. */
  state: CaseState;
  /** pass^k over the run's k trials; null until every trial is graded. */
  passHatK: number | null;
  passed: number;
  graded: number;
  trials: ScenarioDocumentTrial[];
}

/** The scenario command output document. */
export interface ScenarioEvalDocument {
  mode: 'scenario';
  /** The run's page in the viewer. */
  runUrl: string;
  runId: string;
  experimentId: string;
  /** The run's number in its checkpoint directory; `null` for a run a worker served. */
  runNumber: number | null;
  checkpointDirectory: string;
  scenario: { id: string; slug: string; name: string; versionId: string; version: number };
  agentFile: string;
  /** k: trials of each case. */
  trials: number;
  cases: ScenarioDocumentCase[];
  totals: { cases: number; passed: number; failed: number; errored: number; pending: number; trials: number };
  /** The run's pass^k (mean over its cases); null until every trial is graded. */
  passHatK: number | null;
  /** False while a trial is not sealed or has checks pending. */
  complete: boolean;
  baseline?: BaselineComparison;
}

function caseState(verdict: ScenarioRun['cases'][number]['verdict']): CaseState {
  return verdict ?? 'PENDING';
}

/** Builds the document from the run's summary (and each errored trial's error). */
export async function buildScenarioDocument(options: {
  client: EvaluationClient;
  run: ScenarioRun;
  version: ScenarioVersion;
  agentFile: string;
  runNumber: number | null;
  checkpointDirectory: string;
}): Promise<ScenarioEvalDocument> {
  const { client, run, version } = options;
  const origin = new URL(run.runUrl).origin;
  const errors = new Map<string, { type: string; message?: string }>();
  const erroredChecks = new Map<string, string[]>();
  await Promise.all(
    run.cases.flatMap((item) =>
      item.trials
        .filter((slot) => slot.outcome === 'errored' && slot.trialId !== null)
        .map(async (slot) => {
          const trial = await withRetry(() => client.getTrial(slot.trialId!));
          if (trial.error !== undefined) errors.set(slot.trialId!, trial.error);
          erroredChecks.set(
            slot.trialId!,
            trial.checks.filter((check) => check.status === 'error').map((check) => check.name),
          );
        }),
    ),
  );
  const cases = run.cases.map(
    (item): ScenarioDocumentCase => ({
      caseKey: item.caseKey,
      caseId: item.caseId,
      ...(item.name === undefined ? {} : { name: item.name }),
      state: caseState(item.verdict),
      passHatK: item.passHatK,
      passed: item.passed,
      graded: item.graded,
      trials: item.trials.map((slot) => {
        const error = slot.trialId === null ? undefined : errors.get(slot.trialId);
        return {
          trial: slot.trial,
          trialId: slot.trialId,
          state: slot.state,
          outcome: slot.outcome,
          failedChecks: slot.failedChecks,
          erroredChecks: (slot.trialId === null ? undefined : erroredChecks.get(slot.trialId)) ?? [],
          traceId: slot.traceId,
          traceUrl: slot.traceId === null ? null : new URL(`/traces/${slot.traceId}`, origin).href,
          ...(error === undefined ? {} : { error }),
        };
      }),
    }),
  );
  const count = (state: CaseState) => cases.filter((item) => item.state === state).length;
  return {
    mode: 'scenario',
    runUrl: run.runUrl,
    runId: run.id,
    experimentId: run.experimentId,
    runNumber: options.runNumber,
    checkpointDirectory: options.checkpointDirectory,
    scenario: {
      id: version.scenarioId,
      slug: version.slug,
      name: version.name,
      versionId: version.id,
      version: version.number,
    },
    agentFile: options.agentFile,
    trials: run.trials,
    cases,
    totals: {
      cases: cases.length,
      passed: count('PASS'),
      failed: count('FAIL'),
      errored: count('ERROR'),
      pending: count('PENDING'),
      trials: run.totals.trials,
    },
    passHatK: run.passHatK,
    complete: run.complete,
  };
}
