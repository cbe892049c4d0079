/**
 * What the service holds about a run: its cases and their outcomes (results, judge jobs), its
 * scorers, and the comparison with a baseline experiment, all read with transient retries.
 * @module
 */
import type {
  EvaluationClient,
  ExperimentItem,
  JudgeJob,
  LocalScorer,
  Scorer,
  ScorerVersion,
} from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';
import { allPages } from './all-pages.js';
import { compareWithBaseline } from './baseline.js';
import { type CaseOutcome, caseOutcomes } from './case-states.js';
import { withRetry } from './transient-retry.js';

/** What `svc eval` recorded in an experiment's configuration: its revision. */
export function configOf(value: Record<string, unknown>): { revision: string | null } {
  const svcEval = value.svcEval as { revision?: unknown } | undefined;
  return { revision: typeof svcEval?.revision === 'string' ? svcEval.revision : null };
}

/** Whether `version` is scored by `svc eval` itself (the others are deferred). */
export function scoredHere(version: ScorerVersion, scorers: readonly LocalScorer[]): boolean {
  const { definition } = version;
  if (definition.kind === 'builtin') return true;
  if (definition.kind !== 'local_code' || definition.language !== 'typescript') return false;
  return scorers.some(
    (scorer) =>
      scorer.definition.sourceDigest === definition.sourceDigest &&
      scorer.definition.entrypoint === definition.entrypoint,
  );
}

/** What the service holds about an experiment's cases, and their outcomes. */
export async function readOutcomes(
  client: EvaluationClient,
  experimentId: string,
  runId: string,
  scorerVersions: readonly ScorerVersion[],
  localErrors?: ReadonlyMap<string, { type: string; message: string }>,
): Promise<{ items: ExperimentItem[]; outcomes: CaseOutcome[]; jobs: JudgeJob[] }> {
  const [items, results, jobs] = await Promise.all([
    withRetry(() => allPages((page) => client.listExperimentItems(experimentId, page))),
    withRetry(() => allPages((page) => client.listResults(runId, page))),
    withRetry(() => allPages((page) => client.listJudgeJobs(runId, page))),
  ]);
  return {
    items,
    jobs,
    outcomes: caseOutcomes({
      items,
      results,
      scorerVersions,
      judgeJobs: jobs,
      ...(localErrors === undefined ? {} : { localErrors }),
    }),
  };
}

/** The scorers of `versions`, by scorer ID. */
export async function scorersOf(
  client: EvaluationClient,
  versions: readonly ScorerVersion[],
): Promise<Map<string, Scorer>> {
  const ids = [...new Set(versions.map((version) => version.scorerId))];
  const scorers = await Promise.all(ids.map((id) => withRetry(() => client.getScorer(id))));
  return new Map(scorers.map((scorer) => [scorer.id, scorer]));
}

/** The experiment `id`. @throws {@link CliError} (exit code 1, naming `what`) when the project has none. */
export async function experimentOrFail(client: EvaluationClient, id: string, what: string) {
  try {
    return await withRetry(() => client.getExperiment(id));
  } catch (error) {
    if ((error as { status?: number }).status === 404) {
      throw new CliError(`${what}: the project has no experiment ${id}.`, ExitCode.Failure);
    }
    throw error;
  }
}

/** The comparison with the baseline experiment. */
export async function baselineOf(
  client: EvaluationClient,
  baselineId: string,
  current: { outcomes: CaseOutcome[]; versions: Map<string, ScorerVersion>; scorers: Map<string, Scorer> },
) {
  const experiment = await experimentOrFail(client, baselineId, '--baseline');
  const versions = await Promise.all(
    experiment.scorerVersionIds.map((id) => withRetry(() => client.getScorerVersion(id))),
  );
  const scorers = await scorersOf(client, versions);
  const { outcomes } = await readOutcomes(client, experiment.id, experiment.evaluationRunId, versions);
  const byVersion = new Map(versions.map((version) => [version.id, version]));
  const scorerOf =
    (versionsById: Map<string, ScorerVersion>, scorersById: Map<string, Scorer>) => (id: string) => {
      const scorerId = versionsById.get(id)?.scorerId ?? id;
      return { id: scorerId, slug: scorersById.get(scorerId)?.slug ?? scorerId };
    };
  return compareWithBaseline(
    { outcomes: current.outcomes, scorerOf: scorerOf(current.versions, current.scorers) },
    { outcomes, scorerOf: scorerOf(byVersion, scorers) },
    {
      experimentId: experiment.id,
      runUrl: new URL(`/experiments/${experiment.id}`, client.baseUrl).href,
      revision: configOf(experiment.config).revision,
    },
  );
}
