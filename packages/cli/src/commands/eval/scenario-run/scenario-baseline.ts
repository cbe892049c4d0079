/**
 * `svc eval --scenario … --baseline <experiment ID>`: the run compared with an earlier run of the
 * same scenario (named by its experiment's ID, as the spec's `--baseline` is), case by case by case
 * key: regressed, improved, unchanged; pass^k per case as the metric.
 * @module
 */
import type { EvaluationClient, ScenarioRun } from '@svc-run/sdk/evals';
import { CliError } from '../../../cli-error.js';
import { ExitCode } from '../../../exit-codes.js';
import { allPages } from '../all-pages.js';
import { type BaselineComparison, type ComparedRun, compareWithBaseline } from '../baseline.js';
import type { CaseState } from '../case-states.js';
import { withRetry } from '../transient-retry.js';

const PASS_HAT_K = 'pass^k';

/**
 * The run of scenario `scenarioId` whose experiment is `experimentId`.
 *
 * @throws {@link CliError} (exit code 1) when the scenario has no such run.
 */
export async function scenarioBaselineRun(
  client: EvaluationClient,
  scenarioId: string,
  experimentId: string,
): Promise<ScenarioRun> {
  const runs = await withRetry(() => allPages((page) => client.listScenarioRuns(scenarioId, page)));
  const run = runs.find(
    (candidate) => candidate.experimentId === experimentId || candidate.id === experimentId,
  );
  if (run === undefined) {
    throw new CliError(
      `--baseline: ${experimentId} is not the experiment of a run of this scenario (the run pages in the viewer show it).`,
      ExitCode.Failure,
    );
  }
  return withRetry(() => client.getScenarioRun(run.id));
}

function compared(run: ScenarioRun): ComparedRun {
  return {
    outcomes: run.cases.map((item) => ({
      caseId: item.caseId,
      externalKey: item.caseKey,
      state: (item.verdict ?? 'PENDING') as CaseState,
      executionId: null,
      attempt: null,
      traceId: null,
      scores:
        item.passHatK === null
          ? []
          : [
              {
                scorerVersionId: PASS_HAT_K,
                status: 'scored' as const,
                metrics: [{ name: PASS_HAT_K, value: item.passHatK }],
              },
            ],
      failures: [],
    })),
    scorerOf: () => ({ id: 'scenario', slug: 'scenario' }),
  };
}

/** Compares `current` with `baseline`, case by case. */
export function compareScenarioRuns(current: ScenarioRun, baseline: ScenarioRun): BaselineComparison {
  return compareWithBaseline(compared(current), compared(baseline), {
    experimentId: baseline.experimentId,
    runUrl: baseline.runUrl,
    revision: null,
  });
}
