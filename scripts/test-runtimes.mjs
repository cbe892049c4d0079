// Runs the SDK's tests on the runtimes besides the project's Node 24 (which `pnpm test:unit`
// covers): the whole SDK vitest project on Node 22, and the SDK's suite under Bun 1.4 (vitest
// itself running on Bun; the reference server in a Node child process; the test files that need
// Node-only resources left out, see `scripts/bun-sdk/vitest.config.mjs`).
//
//   node scripts/test-runtimes.mjs [node22] [bun] [-- <test files or filters>]
//
// Both runtimes when none is named; the whole suite unless files are given after `--` (paths
// relative to `packages/sdk`, as vitest takes them). A failed test is listed at the end with its
// runtime, duration, the first lines of its error (a property test's seed and path included) and
// the command that runs its file again.
//
// Needs the build (the SDK's tests use the server's `dist`). Installs the runtimes on first use
// (`scripts/runtimes.mjs`). Prints each runtime's counts and duration; exits 1 when a run fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUN_VERSION, ensureBun, ensureNode22, NODE22_VERSION } from './runtimes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const REPORTS = join(ROOT, 'node_modules', '.cache', 'svc-runtimes', 'reports');

const RUNS = {
  node22: {
    label: `Node ${NODE22_VERSION}`,
    rerun: (file) => `npx -y pnpm@10.34.8 test:runtimes node22 -- ${file}`,
    command: (report) => [
      ensureNode22(),
      [VITEST, 'run', '--project', 'sdk', ...reporters(report)],
      // As `test:unit`: node:sqlite warns that it is experimental.
      { NODE_OPTIONS: '--disable-warning=ExperimentalWarning' },
    ],
  },
  bun: {
    label: `Bun ${BUN_VERSION}`,
    rerun: (file) => `npx -y pnpm@10.34.8 test:runtimes bun -- ${file}`,
    command: (report) => [
      ensureBun(),
      [
        '--bun',
        VITEST,
        'run',
        '--config',
        join(ROOT, 'scripts', 'bun-sdk', 'vitest.config.mjs'),
        ...reporters(report),
      ],
      // The reference server's Node: this script's own, the project's Node 24.
      { NODE_OPTIONS: undefined, SVC_REFERENCE_SERVER_NODE: process.execPath },
    ],
  },
};

function reporters(report) {
  return ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
}

/**
 * What it takes to reproduce each failed test: the runtime, the file and test, how long it ran,
 * the first lines of its error (a property test's `seed` and `path` among them), and the command
 * that runs that file again on that runtime.
 */
function failures(report, label, rerun) {
  if (!existsSync(report)) return [];
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const lines = [];
  for (const file of r.testResults) {
    const path = relative(join(ROOT, 'packages', 'sdk'), file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') {
      lines.push(`  ${label} ${path}: the file failed outside its tests: ${firstLines(file.message)}`);
    }
    for (const test of failed) {
      const seed = /\{ seed: (-?\d+), path: "([^"]*)"/.exec(test.failureMessages.join('\n'));
      lines.push(
        `  ${label} ${path} > ${test.fullName} (${Math.round(test.duration ?? 0)} ms)`,
        `    ${firstLines(test.failureMessages[0] ?? '')}`,
        `    rerun: ${seed ? `FC_SEED=${seed[1]} FC_PATH='${seed[2]}' ` : ''}${rerun(path)}`,
      );
    }
  }
  return lines;
}

function firstLines(text) {
  return String(text).split('\n').slice(0, 4).join('\n    ');
}

function counts(report) {
  if (!existsSync(report)) return 'no report (vitest did not finish)';
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  const failedFiles = r.testResults.filter((file) => file.status === 'failed').length;
  const files = `${r.testResults.length} files (${failedFiles} failed)`;
  return `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped of ${r.numTotalTests} tests; ${files}`;
}

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const names = dash === -1 ? argv : argv.slice(0, dash);
/** Test files (or name filters) to run instead of the whole suite, as vitest takes them. */
const filters = dash === -1 ? [] : argv.slice(dash + 1);
for (const name of names) {
  if (!(name in RUNS)) {
    console.error(`test-runtimes: unknown runtime '${name}'; use ${Object.keys(RUNS).join(', ')}`);
    process.exit(2);
  }
}
if (!existsSync(join(ROOT, 'packages', 'server', 'dist', 'index.js'))) {
  console.error('test-runtimes: the SDK tests need the build; run `pnpm run build` first');
  process.exit(2);
}

mkdirSync(REPORTS, { recursive: true });
const results = [];
for (const name of names.length > 0 ? names : Object.keys(RUNS)) {
  const { label, command, rerun } = RUNS[name];
  const report = join(REPORTS, `${name}.json`);
  rmSync(report, { force: true });
  const [binary, baseArgs, env] = command(report);
  const args = [...baseArgs, ...filters];
  console.log(`\ntest-runtimes: the SDK on ${label} (${binary})\n`);
  const started = performance.now();
  const run = spawnSync(binary, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = run.status === 0;
  results.push({
    label,
    ok,
    line: `${counts(report)}, ${seconds} s`,
    failed: failures(report, label, rerun),
  });
}

console.log('\ntest-runtimes:');
for (const { label, ok, line } of results) console.log(`  ${ok ? 'PASS' : 'FAIL'} ${label}: ${line}`);
const failed = results.flatMap((r) => r.failed);
if (failed.length > 0) {
  // A test that fails on a loaded machine only: the load says how busy it was.
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  console.log(`\ntest-runtimes: failed tests (load average ${load} on ${availableParallelism()} CPUs):`);
  for (const line of failed) console.log(line);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
