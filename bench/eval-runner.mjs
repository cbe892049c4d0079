/**
 * The local runner benchmark: the overhead per case of `runExperiment` (crash-safe checkpoints,
 * executions, trace evidence, result submission) over calling the target and the scorers alone.
 *
 * - Server: the reference server (`real-server.mjs`, the built `@svc-run/server`, a child
 *   process, SQLite with `synchronous = FULL`).
 * - Experiment: BENCH_RUNNER_CASES cases (default 100) of a frozen dataset version, a trivial
 *   target (a string from the inputs), two built-in scorers (exact match, case-insensitive
 *   inclusion), concurrency BENCH_RUNNER_CONCURRENCY (default 8).
 * - Baseline (`alone`): the same target and `scoreLocally` with both scorers for every case, through
 *   the same pool of 8, in this process: no service, no checkpoint.
 * - Runner: `runExperiment` of the SDK (its TypeScript sources, through `scripts/ts-source-hooks.mjs`) on a new
 *   experiment, with a new checkpoint directory on the temporary disk (every intent and outcome
 *   written durably: temporary file, fsync, rename, fsync of the directory), traces flushed to the
 *   server as evidence (`traceEvidence: required`), and once more with `traceEvidence: omit`.
 * - BENCH_RUNNER_ROUNDS rounds (default 3); a round is the baseline, then each runner mode. Each
 *   figure is the median of the rounds. Every runner round is checked: one result per case and
 *   scorer on the server, or the run fails (exit 1).
 *
 * Prints cases/s, wall time per case, overhead per case over the baseline (runner time − baseline
 * time, divided by the cases), the client CPU per case, and the latency of one durable checkpoint
 * write on this disk for scale.
 * @module
 */
import '../scripts/ts-source-hooks.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ask, Children, envInt, fmt, pad, padLeft, runBench } from './bench-support.mjs';

const CASES = envInt('BENCH_RUNNER_CASES', 100, 1);
const CONCURRENCY = envInt('BENCH_RUNNER_CONCURRENCY', 8, 1);
const ROUNDS = envInt('BENCH_RUNNER_ROUNDS', 3, 1);
const WATCHDOG_MS = 10 * 60 * 1000;

const here = import.meta.dirname;
const sdk = (path) => new URL(`../packages/sdk/src/${path}`, import.meta.url).href;
const children = new Children();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Time and client CPU of `work`, in milliseconds. */
async function measure(work) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { value, wall, cpu: (used.user + used.system) / 1000 };
}

async function main() {
  const [{ createSvc }, { createEvaluationClient, runExperiment, builtins, scoreLocally }, pool, durable] =
    await Promise.all([
      import(sdk('index.ts')),
      import(sdk('evals/index.ts')),
      import(sdk('evals/runner/for-each-concurrently.ts')),
      import(new URL('../packages/io/src/write-file-durably.ts', import.meta.url).href),
    ]);
  const server = await children.start(join(here, 'real-server.mjs'), 'eval-runner-server');
  const { readWriteKey } = await ask(server, 'keys');
  const client = createEvaluationClient({ apiKey: readWriteKey, baseUrl: server.origin });
  const svc = createSvc({
    apiKey: server.key,
    baseUrl: server.origin,
    serviceName: 'bench-runner',
    captureContent: true,
  });
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-checkpoints-'));
  try {
    // The dataset and the scorer versions, once.
    const dataset = await client.createDataset({ name: 'Runner bench', slug: `runner-bench-${Date.now()}` });
    const version = await client.createDatasetVersion(dataset.id);
    let revision = version.revision;
    const cases = [];
    for (let n = 0; n < CASES; n++) {
      const item = {
        externalKey: `case-${n}`,
        inputs: { question: `What is ${n} + ${n}?`, n },
        expected: String(2 * n),
      };
      cases.push(item);
      revision = (await client.addCase(version.id, { expectedRevision: revision, ...item })).version.revision;
    }
    await client.freezeDatasetVersion(version.id, revision);
    const definitions = [builtins.exactMatch(), builtins.includes(false)];
    const versionIds = [];
    for (const [index, definition] of definitions.entries()) {
      const scorer = await client.createScorer({
        name: `Bench ${index}`,
        slug: `bench-${index}-${Date.now()}`,
      });
      versionIds.push((await client.publishScorerVersion(scorer.id, definition)).id);
    }
    const target = (inputs) => String(2 * inputs.n);

    const alone = () =>
      pool.forEachConcurrently(cases, CONCURRENCY, async (item) => {
        const output = await target(item.inputs);
        for (const definition of definitions) {
          const score = await scoreLocally(definition, {
            inputs: item.inputs,
            hasOutput: true,
            output,
            hasExpected: true,
            expected: item.expected,
            executionState: 'succeeded',
          });
          if (score.status !== 'scored') throw new Error(`the baseline scored ${score.status}`);
        }
      });

    const runner = async (mode, round) => {
      const experiment = await client.createExperiment({
        idempotencyKey: client.newIdempotencyKey(),
        name: `Bench ${mode} ${round}`,
        datasetVersionId: version.id,
        scorerVersionIds: versionIds,
      });
      const checkpointDirectory = join(scratch, `${mode}-${round}`);
      const timed = await measure(() =>
        runExperiment({
          client,
          svc,
          experimentId: experiment.id,
          checkpointDirectory,
          persistResultContent: true,
          traceEvidence: mode === 'required' ? { mode: 'required' } : { mode: 'omit', reason: 'benchmark' },
          concurrency: CONCURRENCY,
          target,
        }),
      );
      const report = timed.value;
      if (report.subjectIds.length !== CASES || report.resultIds.length !== CASES * versionIds.length) {
        throw new Error(
          `the ${mode} run reported ${report.subjectIds.length} subjects, ${report.resultIds.length} results`,
        );
      }
      let stored = 0;
      let after;
      do {
        const page = await client.listResults(
          report.runId,
          after === undefined ? { limit: 100 } : { limit: 100, after },
        );
        stored += page.items.length;
        after = page.nextCursor ?? undefined;
      } while (after !== undefined);
      if (stored !== CASES * versionIds.length)
        throw new Error(`the server holds ${stored} results of the ${mode} run`);
      return timed;
    };

    // Warm-up: module code, connections, the schema-free scorers.
    await alone();
    await runner('omit', 'warm-up');

    const rows = { alone: [], required: [], omit: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      rows.alone.push(await measure(alone));
      rows.required.push(await runner('required', round));
      rows.omit.push(await runner('omit', round));
      const line = Object.entries(rows)
        .map(([name, list]) => `${name} ${fmt(list.at(-1).wall, 0)} ms`)
        .join(', ');
      console.log(`  round ${round}: ${line}`);
    }

    // One durable write on this disk, for scale (a case makes five with both scorers local).
    const writes = [];
    for (let n = 0; n < 50; n++) {
      const start = performance.now();
      await durable.writeFileDurably(join(scratch, 'probe.json'), JSON.stringify({ n, key: 'x'.repeat(36) }));
      writes.push(performance.now() - start);
    }

    const base = median(rows.alone.map((r) => r.wall));
    console.log(
      `\nRunner overhead: ${CASES} cases, trivial target, exact match + inclusion, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (medians)\n`,
    );
    console.log(
      [
        pad('mode', 34),
        padLeft('cases/s', 9),
        padLeft('ms/case', 9),
        padLeft('overhead ms/case', 17),
        padLeft('client CPU ms/case', 19),
      ].join('  '),
    );
    const describe = {
      alone: 'target + scorers alone (baseline)',
      required: 'runExperiment, traceEvidence required',
      omit: 'runExperiment, traceEvidence omit',
    };
    for (const [name, list] of Object.entries(rows)) {
      const wall = median(list.map((r) => r.wall));
      const cpu = median(list.map((r) => r.cpu));
      console.log(
        [
          pad(describe[name], 34),
          padLeft(fmt((CASES / wall) * 1000, name === 'alone' ? 0 : 1), 9),
          padLeft(fmt(wall / CASES, 3), 9),
          padLeft(name === 'alone' ? '—' : fmt((wall - base) / CASES, 2), 17),
          padLeft(fmt(cpu / CASES, 3), 19),
        ].join('  '),
      );
    }
    console.log(
      `\nOne durable checkpoint write (temporary file, fsync, rename, directory fsync) on ${tmpdir()}: median ${fmt(median(writes), 2)} ms; a case makes 5 (cases run ${CONCURRENCY} at a time).`,
    );
    console.log(
      'Overhead per case = (runner wall time − baseline wall time) / cases. Per case the runner makes 3 service calls (start, complete, submit) and 5 durable writes; with traceEvidence required it also flushes the case span and the service snapshots the stored trace.',
    );
  } finally {
    await svc.shutdown().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
    await children.stop(server);
  }
}

await runBench('eval-runner', main, children, WATCHDOG_MS);
