/**
 * Experiments for the runners' tests: a frozen dataset version of question cases, scorer versions
 * (two built-ins, a local-code scorer, a manual one) and experiments on them. Not part of the
 * package's public API.
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frozenVersion, uniqueSlug } from '../../client/__fixtures__/eval-server.js';
import type { EvaluationClient } from '../../client/evaluation-client.js';
import { defineLocalScorer, type LocalScorer } from '../../scorers/define-local-scorer.js';
import type { ScorerDefinition } from '../../scorers/scorer-definitions.js';

/** The source of the local-code scorer (its digest identifies the scorer version). */
export const LENGTH_SCORER_SOURCE = 'export const short = (output) => String(output).length <= 24;\n';

/**
 * A local-code scorer: the output's text is at most 24 characters (`short`), with the length as a
 * number metric.
 */
export const lengthScorer: LocalScorer = defineLocalScorer({
  source: LENGTH_SCORER_SOURCE,
  entrypoint: 'scorers/length.ts#short',
  metrics: [
    { name: 'short', type: 'boolean' },
    { name: 'length', type: 'number', min: 0 },
  ],
  score: ({ hasOutput, output }) => {
    if (!hasOutput) return { status: 'skipped', explanation: 'No output to measure.' };
    const length = (typeof output === 'string' ? output : JSON.stringify(output)).length;
    return {
      status: 'scored',
      metrics: [
        { name: 'short', value: length <= 24, passed: length <= 24 },
        { name: 'length', value: length },
      ],
      explanation: `The output is ${length} characters long.`,
    };
  },
});

/** `count` question cases: case `n` asks for `n + n`; its expected answer is `"<2n>"`. */
export function questionCases(count: number) {
  return Array.from({ length: count }, (_, n) => ({
    externalKey: `case-${String(n).padStart(2, '0')}`,
    inputs: { question: `What is ${n} + ${n}?`, n },
    expected: String(2 * n),
  }));
}

/** A deterministic target: answers case `n` with `"<2n>"`, except every third case, answered wrong. */
export function answer(inputs: unknown): string {
  const { n } = inputs as { n: number };
  return n % 3 === 2 ? `about ${2 * n + 1}, I think` : String(2 * n);
}

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

/** A new empty temporary directory. */
export function temporaryDirectory(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `svc-runner-${prefix}-`));
}
