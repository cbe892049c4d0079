/**
 * The `svc eval --set` benchmark: the overhead per case of the command-line evaluator (the built
 * `svc` executable in a child process: key check, registry lookups, a private directory per case,
 * the command through the shell, its report and outputs kept durably, the case's span and
 * execution, scoring, the report) over running the same agent command directly, in the same run.
 *
 * - Server: the reference server (`real-server.mjs`, the built `@svc-run/server`, a child process,
 *   SQLite with `synchronous = FULL`).
 * - Eval sets: BENCH_SVC_EVAL_CASES cases (default 50) and a one-case set (for the fixed cost of a
 *   run: Node's start, the key check, the lookups, the report); one built-in scorer (inclusion).
 * - Commands: `true` (the trivial command: it writes nothing, so every case is an errored
 *   case, `NoOutput`) and `printf ok > "$SVC_CASE_OUTPUT_DIR/answer.txt"` (a trivial command that
 *   answers: every case passes).
 * - Direct (the baseline): the same command run through the shell once per case, one after the
 *   other, with `SVC_CASE_OUTPUT_DIR` set, in this process.
 * - `svc eval`: `node packages/cli/bin/svc.mjs eval --set … --json` with a new checkpoint directory
 *   each time, concurrency 1 (the default). Every run is checked: its exit code, and the
 *   document's totals (all errored, or all passed).
 * - BENCH_SVC_EVAL_ROUNDS rounds (default 3); each figure is the median of the rounds.
 *
 * Prints ms per case of each, the overhead per case over direct ((svc eval − direct) / cases), and
 * the marginal overhead per case ((N-case run − one-case run) / (N − 1) − direct per case), which
 * leaves out the run's fixed cost.
 * @module
 */
import '../scripts/ts-source-hooks.mjs';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ask, Children, envInt, fmt, pad, padLeft, runBench } from './bench-support.mjs';

const CASES = envInt('BENCH_SVC_EVAL_CASES', 50, 2);
const ROUNDS = envInt('BENCH_SVC_EVAL_ROUNDS', 3, 1);
const WATCHDOG_MS = 15 * 60 * 1000;

const here = import.meta.dirname;
const SVC = fileURLToPath(new URL('../packages/cli/bin/svc.mjs', import.meta.url));
const sdk = (path) => new URL(`../packages/sdk/src/${path}`, import.meta.url).href;
const children = new Children();

const COMMANDS = {
  true: 'true',
  answers: 'printf ok > "$SVC_CASE_OUTPUT_DIR/answer.txt"',
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Runs `command` with `args` to its end; resolves with its exit code and output. */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.stderr?.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The command run directly through the shell once per case: wall time in ms. */
async function direct(command, cases, scratch) {
  const output = mkdtempSync(join(scratch, 'direct-'));
  const start = performance.now();
  for (let n = 0; n < cases; n++) {
    const end = await run(command, [], {
      shell: true,
      cwd: output,
      env: { ...process.env, SVC_CASE_OUTPUT_DIR: output },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (end.code !== 0) throw new Error(`the command exited with ${end.code}: ${end.stderr}`);
  }
  return performance.now() - start;
}

async function main() {
  const [{ createEvaluationClient }] = await Promise.all([import(sdk('evals/client/evaluation-client.ts'))]);
  const server = await children.start(join(here, 'real-server.mjs'), 'svc-eval-server');
  const { readWriteKey } = await ask(server, 'keys');
  const client = createEvaluationClient({ apiKey: readWriteKey, baseUrl: server.origin });
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-eval-'));
  try {
    const envFile = join(scratch, 'svc.env');
    writeFileSync(envFile, `SVC_BASE_URL=${server.origin}\nSVC_API_KEY=${readWriteKey}\n`, { mode: 0o600 });
    const stamp = Date.now();
    const evalSet = async (slug, count) => {
      const dataset = await client.createDataset({ name: slug, slug });
      const version = await client.createDatasetVersion(dataset.id);
      let revision = version.revision;
      for (let n = 0; n < count; n++) {
        revision = (
          await client.addCase(version.id, {
            expectedRevision: revision,
            externalKey: `case-${n}`,
            inputs: { n },
            expected: 'ok',
          })
        ).version.revision;
      }
      await client.freezeDatasetVersion(version.id, revision);
      return slug;
    };
    const sets = {
      many: await evalSet(`bench-many-${stamp}`, CASES),
      one: await evalSet(`bench-one-${stamp}`, 1),
    };
    const scorer = await client.createScorer({ name: 'Bench includes', slug: `bench-includes-${stamp}` });
    await client.publishScorerVersion(scorer.id, { kind: 'builtin', builtin: 'includes' });

    let runs = 0;
    const svcEval = async (name, set, cases) => {
      runs += 1;
      const args = [
        SVC,
        'eval',
        ...['--set', set, '--scorer', scorer.slug, '--command', COMMANDS[name]],
        ...['--env-file', envFile, '--checkpoint-dir', join(scratch, `run-${runs}`), '--json'],
      ];
      const start = performance.now();
      const end = await run(process.execPath, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
      const wall = performance.now() - start;
      const wanted = name === 'true' ? 1 : 0;
      if (end.code !== wanted) throw new Error(`svc eval (${name}) exited with ${end.code}: ${end.stderr}`);
      const { totals } = JSON.parse(end.stdout);
      const expected = name === 'true' ? totals.errored : totals.passed;
      if (totals.cases !== cases || expected !== cases) {
        throw new Error(`svc eval (${name}) reported ${JSON.stringify(totals)}`);
      }
      return wall;
    };

    // Warm-up: the file system cache for Node and the packages, the server's statements.
    await direct(COMMANDS.answers, 5, scratch);
    await svcEval('answers', sets.one, 1);

    const rows = {};
    for (const name of Object.keys(COMMANDS)) rows[name] = { direct: [], many: [], one: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const line = [];
      for (const name of Object.keys(COMMANDS)) {
        const row = rows[name];
        row.direct.push(await direct(COMMANDS[name], CASES, scratch));
        row.many.push(await svcEval(name, sets.many, CASES));
        row.one.push(await svcEval(name, sets.one, 1));
        line.push(
          `${name}: direct ${fmt(row.direct.at(-1), 0)} ms, svc eval ${fmt(row.many.at(-1), 0)} ms (${CASES} cases), ${fmt(row.one.at(-1), 0)} ms (1 case)`,
        );
      }
      console.log(`  round ${round}: ${line.join('; ')}`);
    }

    console.log(`\nsvc eval --set overhead: ${CASES} cases, concurrency 1, ${ROUNDS} rounds (medians)\n`);
    console.log(
      [
        pad('command', 46),
        padLeft('direct ms/case', 15),
        padLeft('svc eval ms/case', 17),
        padLeft('overhead ms/case', 17),
        padLeft('marginal ms/case', 17),
        padLeft('fixed ms/run', 13),
      ].join('  '),
    );
    for (const [name, row] of Object.entries(rows)) {
      const directPerCase = median(row.direct) / CASES;
      const many = median(row.many);
      const one = median(row.one);
      console.log(
        [
          pad(COMMANDS[name], 46),
          padLeft(fmt(directPerCase, 2), 15),
          padLeft(fmt(many / CASES, 2), 17),
          padLeft(fmt(many / CASES - directPerCase, 2), 17),
          padLeft(fmt((many - one) / (CASES - 1) - directPerCase, 2), 17),
          padLeft(fmt(one - directPerCase, 0), 13),
        ].join('  '),
      );
    }
    console.log(
      "\nOverhead per case = (svc eval wall time − direct wall time) / cases, the run's fixed cost included (Node start, key check, lookups, report). Marginal = ((N-case run − one-case run) / (N − 1)) − direct per case: what each further case costs. Fixed = one-case run − one direct command. With `true` every case is an errored case (it writes nothing); the other command answers and every case is scored and passes.",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await children.stop(server);
  }
}

await runBench('svc-eval', main, children, WATCHDOG_MS);
