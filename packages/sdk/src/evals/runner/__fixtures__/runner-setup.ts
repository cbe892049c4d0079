/**
 * Experiments for the runners' tests: a frozen dataset version of question cases, scorer versions
 * (two built-ins, a local-code scorer, a manual one), experiments on them, and temporary
 * checkpoint directories. Not part of the
 * package's public API.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { frozenVersion, uniqueSlug } from '../../client/__fixtures__/eval-server.js';
import type { EvaluationClient } from '../../client/evaluation-client.js';
import type { ScorerDefinition } from '../../scorers/scorer-definitions.js';
import { lengthScorer, questionCases } from './question-cases.js';

async function publish(
  client: EvaluationClient,
  slug: string,
  definition: ScorerDefinition,
): Promise<string> {
  const scorer = await client.createScorer({ name: slug, slug: uniqueSlug(slug) });
  return (await client.publishScorerVersion(scorer.id, definition)).id;
}

/** Scorer versions of the tests. */
export interface ScorerVersionIds {
  exactMatch: string;
  includes: string;
  length: string;
  manual: string;
}

/** Publishes the scorer versions: exact match, includes (case-insensitive), the length scorer, manual. */
export async function publishScorers(client: EvaluationClient): Promise<ScorerVersionIds> {
  return {
    exactMatch: await publish(client, 'exact', {
      kind: 'builtin',
      builtin: 'exact_match',
      metrics: [{ name: 'exact_match', type: 'boolean' }],
    }),
    includes: await publish(client, 'includes', {
      kind: 'builtin',
      builtin: 'includes',
      caseSensitive: false,
      metrics: [{ name: 'includes', type: 'boolean' }],
    }),
    length: await publish(client, 'length', lengthScorer.definition as ScorerDefinition),
    manual: await publish(client, 'manual', { kind: 'manual', metrics: [{ name: 'ok', type: 'boolean' }] }),
  };
}

/** A frozen version of `count` question cases. */
export async function questionVersion(client: EvaluationClient, count: number) {
  return frozenVersion(client, questionCases(count));
}

/** Creates an experiment on `versionId` scored by `scorerVersionIds`. */
export async function createExperiment(
  client: EvaluationClient,
  versionId: string,
  scorerVersionIds: string[],
  config: Record<string, unknown> = { model: 'tiny' },
) {
  return client.createExperiment({
    idempotencyKey: client.newIdempotencyKey(),
    name: 'Runner test',
    datasetVersionId: versionId,
    scorerVersionIds,
    config,
  });
}

/**
 * Temporary directories for a test file: the returned function makes a new empty one named after
 * `prefix`; an `afterAll` removes them all.
 */
export function useTemporaryDirectories(): (prefix: string) => string {
  const directories: string[] = [];
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });
  return (prefix) => {
    const directory = mkdtempSync(join(tmpdir(), `svc-runner-${prefix}-`));
    directories.push(directory);
    return directory;
  };
}
