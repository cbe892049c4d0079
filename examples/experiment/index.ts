/**
 * Experiment: runs the cases of a small dataset locally with `runExperiment`, scores each answer
 * with two built-in scorers and one local-code scorer, and prints a PASS/FAIL table.
 *
 * The "model" under test is a lookup table that makes a few mistakes on purpose (a wrong city, a
 * long-winded answer, a country it does not know), so the table shows passing, failing and errored
 * cases. Replace `answerCapital` with a call to your application.
 *
 * Run it with a Read-and-write key, named as in the env file of `svc serve`:
 *   node --env-file=.svc-data/svc.env examples/experiment/index.ts
 *   SVC_BASE_URL=https://… SVC_RW_KEY=svc_rw_… node examples/experiment/index.ts
 * Resume an interrupted run (same checkpoint directory, nothing done twice):
 *   SVC_EXPERIMENT_ID=<the ID it printed> node --env-file=.svc-data/svc.env examples/experiment/index.ts
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSvc } from '@svc-run/sdk';
import {
  builtins,
  createEvaluationClient,
  defineLocalScorer,
  type EvaluationClient,
  type ExperimentCase,
  runExperiment,
  type ScorerDefinition,
  UncertainExecutionError,
} from '@svc-run/sdk/evals';

function fail(message: string): never {
  console.error(`experiment: ${message}`);
  process.exit(1);
}

// The application reads its own configuration; the SDK never reads the environment. The names are
// those of the env file `svc serve` writes: SVC_RW_KEY is its Read-and-write key.
const baseUrl = process.env.SVC_BASE_URL?.trim();
const apiKey = process.env.SVC_RW_KEY?.trim();
if (!baseUrl || !apiKey) {
  fail(
    'set SVC_BASE_URL to the service origin and SVC_RW_KEY to a Read-and-write key, e.g. with the env file of `svc serve`:\n' +
      '  node --env-file=.svc-data/svc.env examples/experiment/index.ts\n' +
      'or run the local demo from the repository root: npx -y pnpm@10.34.8 --filter @svc-run/example-experiment demo',
  );
}

// ─── What is evaluated ─────────────────────────────────────────────────────────────────────────

const CASES = [
  { externalKey: 'france', inputs: { country: 'France' }, expected: 'Paris' },
  { externalKey: 'japan', inputs: { country: 'Japan' }, expected: 'Tokyo' },
  { externalKey: 'australia', inputs: { country: 'Australia' }, expected: 'Canberra' },
  { externalKey: 'canada', inputs: { country: 'Canada' }, expected: 'Ottawa' },
  { externalKey: 'kenya', inputs: { country: 'Kenya' }, expected: 'Nairobi' },
  { externalKey: 'atlantis', inputs: { country: 'Atlantis' }, expected: 'Poseidonis' },
];

const LOOKUP: Record<string, string> = {
  France: 'Paris',
  Japan: 'Tokyo',
  Australia: 'Sydney', // wrong on purpose
  Canada: 'The capital of Canada is Ottawa, on the Ottawa River in Ontario.', // right, but wordy
  Kenya: 'nairobi', // right, lower case
};

/** The target: one case in, one answer out. A throw completes the execution in state `error`. */
async function answerCapital(inputs: unknown): Promise<string> {
  const { country } = inputs as { country: string };
  const capital = LOOKUP[country];
  if (capital === undefined) throw new Error(`no capital known for ${country}`);
  return capital;
}

/** A local-code scorer: its version pins the SHA-256 of this file (an edit makes a new version). */
const concise = defineLocalScorer({
  source: readFileSync(new URL(import.meta.url)),
  entrypoint: 'examples/experiment/index.ts#concise',
  metrics: [
    { name: 'concise', type: 'boolean' },
    { name: 'words', type: 'number', min: 0 },
  ],
  score: ({ hasOutput, output }) => {
    if (!hasOutput || typeof output !== 'string')
      return { status: 'skipped', explanation: 'No text answer.' };
    const words = output.trim().split(/\s+/u).length;
    return {
      status: 'scored',
      metrics: [
        { name: 'concise', value: words <= 4, passed: words <= 4 },
        { name: 'words', value: words },
      ],
      explanation: `${words} word${words === 1 ? '' : 's'}; at most 4 pass.`,
    };
  },
});

const SCORERS: { column: string; definition: ScorerDefinition }[] = [
  { column: 'exact', definition: builtins.exactMatch() },
  { column: 'includes', definition: builtins.includes(false) },
  { column: 'concise', definition: concise.definition as ScorerDefinition },
];

// ─── Setup: dataset, scorer versions, experiment (skipped when resuming) ──────────────────────

async function createExperiment(client: EvaluationClient): Promise<string> {
  const suffix = randomUUID().slice(0, 8);
  const dataset = await client.createDataset({ name: 'Capitals', slug: `capitals-${suffix}` });
  const version = await client.createDatasetVersion(dataset.id);
  let revision = version.revision;
  for (const item of CASES) {
    revision = (await client.addCase(version.id, { expectedRevision: revision, ...item })).version.revision;
  }
  await client.freezeDatasetVersion(version.id, revision);
  const scorerVersionIds: string[] = [];
  for (const { column, definition } of SCORERS) {
    const scorer = await client.createScorer({
      name: `Capitals: ${column}`,
      slug: `capitals-${column}-${suffix}`,
    });
    scorerVersionIds.push((await client.publishScorerVersion(scorer.id, definition)).id);
  }
  const experiment = await client.createExperiment({
    idempotencyKey: client.newIdempotencyKey(),
    name: 'Capitals lookup v1',
    datasetVersionId: version.id,
    scorerVersionIds,
    config: { model: 'lookup-v1' },
  });
  return experiment.id;
}

// ─── Run ──────────────────────────────────────────────────────────────────────────────────────

const client = createEvaluationClient({ apiKey, baseUrl });
// One tracing client per process. Each case runs in a span of it; the span's trace is the
// execution's evidence. (A Tracing key of the same project works too.)
const svc = createSvc({ apiKey, baseUrl, serviceName: 'capitals-experiment', captureContent: true });

const experimentId = process.env.SVC_EXPERIMENT_ID?.trim() || (await createExperiment(client));
// A directory dedicated to this run (ignored by git): rerunning with it resumes the run.
const checkpointDirectory = join('.svc-checkpoints', `experiment-${experimentId}`);
console.log(`Experiment ${experimentId} (checkpoints in ${checkpointDirectory})\n`);

try {
  const report = await runExperiment({
    client,
    svc,
    experimentId,
    checkpointDirectory,
    persistResultContent: true,
    traceEvidence: { mode: 'required' },
    scorers: [concise],
    concurrency: 4,
    target: (inputs) => answerCapital(inputs),
  });
  console.log(
    `Run ${report.runId}: ${report.subjectIds.length} cases, ${report.resultIds.length} results.\n`,
  );
} catch (error) {
  if (UncertainExecutionError.isInstance(error)) {
    // The error names the case by its ID; the dataset knows it by its external key.
    const view = await client.getExperimentCase(experimentId, error.caseId).catch(() => undefined);
    const name = view === undefined ? error.caseId : `"${view.case.externalKey}" (case ${error.caseId})`;
    fail(`${name} may have completed without a saved outcome; it is not run again.\n${error.message}`);
  }
  throw error;
} finally {
  await svc.shutdown();
}

// ─── Report: a PASS/FAIL table ────────────────────────────────────────────────────────────────

type Verdict = 'PASS' | 'FAIL' | 'ERROR';

function verdictOf(view: ExperimentCase, cells: string[]): Verdict {
  const execution = view.executions.at(-1);
  if (execution?.state !== 'succeeded' || cells.includes('error')) return 'ERROR';
  return cells.includes('fail') ? 'FAIL' : 'PASS';
}

const experiment = await client.getExperiment(experimentId);
const columns = ['case', 'answer', ...SCORERS.map((s) => s.column), 'verdict'];
const rows: string[][] = [];
const totals: Record<Verdict, number> = { PASS: 0, FAIL: 0, ERROR: 0 };
for (const item of (await client.listExperimentItems(experimentId, { limit: 100 })).items) {
  const view = await client.getExperimentCase(experimentId, item.caseId);
  const execution = view.executions.at(-1);
  const results = view.results.filter((r) => r.evaluationItemId === execution?.evaluationItemId);
  const cells = experiment.scorerVersionIds.map((versionId) => {
    const result = results.find((r) => r.scorerVersionId === versionId);
    if (result === undefined) return 'pending';
    if (result.status !== 'scored') return result.status === 'error' ? 'error' : 'skip';
    return result.metrics.some((metric) => metric.passed === false) ? 'fail' : 'pass';
  });
  const verdict = verdictOf(view, cells);
  totals[verdict] += 1;
  const answer =
    execution?.state === 'succeeded' ? JSON.stringify(execution.output) : `(${execution?.error?.type})`;
  rows.push([item.externalKey, answer.length > 40 ? `${answer.slice(0, 37)}…` : answer, ...cells, verdict]);
}
const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
console.log(line(columns));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const row of rows) console.log(line(row));
console.log(
  `\nTotals: ${totals.PASS} passed, ${totals.FAIL} failed, ${totals.ERROR} errored, of ${rows.length} cases` +
    ` (run ${experiment.evaluationRunId}${experiment.finishedAt ? ', experiment finished' : ''}).`,
);
