/**
 * Finds what `svc eval --set … --scorer …` names in the registry: the eval set's version and each
 * scorer's latest version.
 * @module
 */
import type { Dataset, DatasetVersion, EvaluationClient, Scorer, ScorerVersion } from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';
import { allPages } from './all-pages.js';
import type { EvalSetReference } from './eval-set-reference.js';

/** The eval set and version to run. */
export interface ResolvedEvalSet {
  dataset: Dataset;
  version: DatasetVersion;
}

/** A scorer and the version to score with. */
export interface ResolvedScorer {
  scorer: Scorer;
  version: ScorerVersion;
}

/**
 * The dataset with the reference's slug and its version: the one numbered, or the latest frozen.
 *
 * @throws {@link CliError} (exit code 1) when there is no such dataset or version, or the version
 *   is not frozen.
 */
export async function resolveEvalSet(
  client: EvaluationClient,
  reference: EvalSetReference,
): Promise<ResolvedEvalSet> {
  const dataset = (await allPages((page) => client.listDatasets(page))).find(
    (candidate) => candidate.slug === reference.slug,
  );
  if (dataset === undefined) {
    throw new CliError(
      `the project has no eval set (dataset) with the slug ${reference.slug}.`,
      ExitCode.Failure,
    );
  }
  const versions = await allPages((page) => client.listDatasetVersions(dataset.id, page));
  if (reference.version !== undefined) {
    const version = versions.find((candidate) => candidate.number === reference.version);
    if (version === undefined) {
      throw new CliError(
        `the eval set ${reference.slug} has no version ${reference.version}.`,
        ExitCode.Failure,
      );
    }
    if (!version.frozen) {
      throw new CliError(
        `version ${reference.version} of the eval set ${reference.slug} is not frozen: freeze it first (experiments run frozen versions only).`,
        ExitCode.Failure,
      );
    }
    return { dataset, version };
  }
  const version = versions.filter((candidate) => candidate.frozen).at(-1);
  if (version === undefined) {
    throw new CliError(
      `the eval set ${reference.slug} has no frozen version: freeze one first (experiments run frozen versions only).`,
      ExitCode.Failure,
    );
  }
  return { dataset, version };
}

/**
 * Each scorer by slug, with its latest version.
 *
 * @throws {@link CliError} (exit code 1) for a slug no scorer has, or a scorer without versions.
 */
export async function resolveScorers(
  client: EvaluationClient,
  slugs: readonly string[],
): Promise<ResolvedScorer[]> {
  const scorers = await allPages((page) => client.listScorers(page));
  const resolved: ResolvedScorer[] = [];
  for (const slug of slugs) {
    const scorer = scorers.find((candidate) => candidate.slug === slug);
    if (scorer === undefined) {
      throw new CliError(`the project has no scorer with the slug ${slug}.`, ExitCode.Failure);
    }
    if (scorer.latestVersionId === null) {
      throw new CliError(`the scorer ${slug} has no published version.`, ExitCode.Failure);
    }
    resolved.push({ scorer, version: await client.getScorerVersion(scorer.latestVersionId) });
  }
  return resolved;
}
