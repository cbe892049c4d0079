/**
 * An experiment as its page shows it, read from the evaluation registry: the experiment, its eval
 * set and version, its scorers, the revision and baseline `svc eval` recorded in its configuration,
 * and the outcome of every case.
 * @module
 */
import { pageRequest } from '../../evals/core/paging.js';
import type { EvalRegistry } from '../../evals/eval-registry.js';
import type { Experiment, ExperimentItem } from '../../evals/experiments/experiment-store.js';
import { type CaseOutcome, type CaseTotals, caseOutcomes, totalsOf } from './case-outcomes.js';

/** A scorer version of the experiment. */
export interface ExperimentScorer {
  versionId: string;
  scorerId: string;
  slug: string;
  /** The version's number. */
  number: number;
  kind: string;
}

/** An experiment, read. */
export interface ExperimentView {
  experiment: Experiment;
  dataset: { id: string; slug: string; name: string };
  datasetVersion: { id: string; number: number };
  scorers: ExperimentScorer[];
  /** `svc eval --revision`: what the run evaluated (a commit, a tag), when recorded. */
  revision: string | null;
  /** `svc eval --baseline`: the experiment the run was compared with, when recorded. */
  baselineId: string | null;
  outcomes: CaseOutcome[];
  totals: CaseTotals;
}

const PAGE = '100';

/** What `svc eval` records under `config.svcEval`, when it made the experiment. */
export function svcEvalConfig(experiment: Experiment): {
  revision: string | null;
  baselineId: string | null;
} {
  const recorded = experiment.config.svcEval;
  const config =
    typeof recorded === 'object' && recorded !== null ? (recorded as Record<string, unknown>) : {};
  return {
    revision: typeof config.revision === 'string' ? config.revision : null,
    baselineId: typeof config.baselineExperimentId === 'string' ? config.baselineExperimentId : null,
  };
}

function allItems(registry: EvalRegistry, experimentId: string): ExperimentItem[] {
  const items: ExperimentItem[] = [];
  let cursor: string | undefined;
  do {
    const page = registry.experiments.listItems(experimentId, pageRequest({ after: cursor, limit: PAGE }));
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/**
 * Reads experiment `id`. `scorerVersionsOf`, when given, says which of the experiment's scorer
 * versions grade each case (see `OutcomeSources`).
 * @throws ApiError 404 when the registry has no such experiment.
 */
export function readExperiment(
  registry: EvalRegistry,
  id: string,
  scorerVersionsOf?: (
    experiment: Experiment,
  ) => ((externalKey: string) => readonly string[] | undefined) | undefined,
): ExperimentView {
  const experiment = registry.experiments.get(id);
  const dataset = registry.datasets.getDataset(experiment.datasetId);
  const version = registry.datasets.getVersion(experiment.datasetVersionId);
  const scorers = experiment.scorerVersionIds.map((versionId): ExperimentScorer => {
    const scorerVersion = registry.scorers.getVersion(versionId);
    const scorer = registry.scorers.getScorer(scorerVersion.scorerId);
    return {
      versionId,
      scorerId: scorer.id,
      slug: scorer.slug,
      number: scorerVersion.number,
      kind: scorerVersion.definition.kind,
    };
  });
  const items = allItems(registry, id);
  const executionIds = items.flatMap((item) =>
    item.latestExecution?.state === 'succeeded' ? [item.latestExecution.id] : [],
  );
  const outcomes = caseOutcomes({
    items,
    results: registry.results.ofExecutions(executionIds),
    scorerVersionIds: experiment.scorerVersionIds,
    ...(scorerVersionsOf === undefined ? {} : { scorerVersionsOf: scorerVersionsOf(experiment) }),
    judgeJobs: registry.judgeJobs.allOfRun(experiment.evaluationRunId),
  });
  return {
    experiment,
    dataset: { id: dataset.id, slug: dataset.slug, name: dataset.name },
    datasetVersion: { id: version.id, number: version.number },
    scorers,
    ...svcEvalConfig(experiment),
    outcomes,
    totals: totalsOf(outcomes),
  };
}
