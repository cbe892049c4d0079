/**
 * The report of a run, read from what the service holds (cases, results, judge jobs) and what the
 * run's directory keeps (each command's report and output): the direct-case command output
 * document, with the comparison with the baseline when one is given.
 * @module
 */
import type {
  Dataset,
  DatasetVersion,
  EvaluationClient,
  Experiment,
  LocalScorer,
  Scorer,
  ScorerVersion,
} from '@svc-run/sdk/evals';
import type { CommandRecords } from './command-records.js';
import { documentCase, type EvalDocument, totalsOf } from './eval-document.js';
import { restoreExplanations } from './local-explanations.js';
import { baselineOf, configOf, readOutcomes, scoredHere } from './read-run.js';

/** What a run's document is made from. */
export interface DocumentSources {
  client: EvaluationClient;
  experiment: Experiment;
  dataset: Dataset;
  datasetVersion: DatasetVersion;
  /** The experiment's scorer versions, in its order. */
  versions: readonly ScorerVersion[];
  /** Their scorers, by scorer ID. */
  scorers: ReadonlyMap<string, Scorer>;
  /** The local scorers of `--scorer-module`. */
  localScorers: readonly LocalScorer[];
  /** The scorer versions `svc eval` does not score itself. */
  deferred: string[];
  records: CommandRecords;
  run: { url: string; number: number; checkpointDirectory: string };
  /** `--content`: without it, the explanations of the scorers run here are restored locally. */
  content: boolean;
  /** `--baseline`. */
  baseline: string | undefined;
}

/** The document of the run, as the service and the run's directory hold it now. */
export async function buildDocument(sources: DocumentSources): Promise<EvalDocument> {
  const { client, experiment, versions, scorers, localScorers } = sources;
  const commands = await sources.records.all();
  const localErrors = new Map(
    [...commands].flatMap(([traceId, record]) =>
      record.error === undefined ? [] : [[traceId, record.error] as const],
    ),
  );
  const { items, outcomes } = await readOutcomes(
    client,
    experiment.id,
    experiment.evaluationRunId,
    versions,
    localErrors,
  );
  const byVersion = new Map(versions.map((version) => [version.id, version]));
  if (!sources.content) {
    await restoreExplanations(outcomes, {
      items,
      versions: byVersion,
      scoredHere: (version) => scoredHere(version, localScorers),
      scorers: localScorers,
      commands,
    });
  }
  const slugOf = (id: string) => scorers.get(byVersion.get(id)?.scorerId ?? '')?.slug ?? id;
  const cases = outcomes.map((outcome) => {
    const command = outcome.traceId === null ? undefined : commands.get(outcome.traceId);
    return documentCase(outcome, {
      origin: client.baseUrl,
      slugOf,
      command,
      outputFiles: command?.outputFiles ?? [],
    });
  });
  const document: EvalDocument = {
    mode: 'direct',
    runUrl: sources.run.url,
    experimentId: experiment.id,
    runId: experiment.evaluationRunId,
    runNumber: sources.run.number,
    checkpointDirectory: sources.run.checkpointDirectory,
    evalSet: {
      slug: sources.dataset.slug,
      datasetId: sources.dataset.id,
      versionId: sources.datasetVersion.id,
      version: sources.datasetVersion.number,
    },
    revision: configOf(experiment.config).revision,
    scorers: versions.map((version) => ({
      slug: slugOf(version.id),
      scorerId: version.scorerId,
      scorerVersionId: version.id,
      version: version.number,
      kind: version.definition.kind,
    })),
    cases,
    totals: totalsOf(cases),
    deferredScorerVersionIds: sources.deferred,
    complete: !cases.some((item) => item.state === 'PENDING'),
  };
  if (sources.baseline !== undefined) {
    document.baseline = await baselineOf(client, sources.baseline, {
      outcomes,
      versions: byVersion,
      scorers: new Map(scorers),
    });
  }
  return document;
}
