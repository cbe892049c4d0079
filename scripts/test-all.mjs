// `pnpm test`: every check CI runs, in as little wall time as two cores allow.
//
//   1. lint, typecheck and the other runtimes' install, beside the build (the build's type
//      declarations take most of a minute);
//   2. then two lanes at once:
//      - CPU lane: vitest on Node 24 (every package, the browser tests included), then the SDK's
//        suite on Node 22 and under Bun;
//      - I/O lane: the consumer test (pack, npm installs), Schemathesis against the server's
//        OpenAPI document, the Python SDK's suite (its virtual environment, ruff, mypy, pytest).
//      The I/O lane waits mostly on installs, child servers and sockets, so it costs the CPU lane
//      little; running the lanes one after the other took about twice as long.
//
// Each step's output goes to a log file and is printed whole when the step ends, so the two lanes
// never interleave their lines; a summary with each step's result and duration ends the run. Exit
// code 1 when any step failed (every step still runs, so one run shows every failure).
//
//   node scripts/test-all.mjs [--sequential]    (--sequential: one step at a time)
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOGS = join(ROOT, 'node_modules', '.cache', 'svc-test-logs');
const SEQUENTIAL = process.argv.includes('--sequential');

/** A step: a label and the pnpm script (or node script) it runs. */
const step = (label, command, args) => ({ label, command, args });
const pnpmScript = (label, script) => step(label, process.execPath, [pnpmCli(), 'run', '--silent', script]);
const nodeScript = (label, script, ...args) => step(label, process.execPath, [join(ROOT, script), ...args]);

/** The pnpm that runs this script (`npm_execpath`), so every step uses the same pnpm and Node. */
function pnpmCli() {
  const cli = process.env.npm_execpath;
  if (!cli) {
    console.error('test-all: run it through pnpm (npx -y pnpm@10.34.8 test): npm_execpath is not set');
    process.exit(2);
  }
  return cli;
}

const results = [];

/** Runs one step with its output in a log file; prints the log when it ends. */
function run({ label, command, args }) {
  mkdirSync(LOGS, { recursive: true });
  const log = join(LOGS, `${label.replace(/[^a-z0-9]+/gi, '-')}.log`);
  const out = createWriteStream(log);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.once('error', (error) => out.write(`\ntest-all: could not start ${label}: ${error.message}\n`));
    child.once('close', (code, signal) => {
      out.end(() => {
        const seconds = (performance.now() - started) / 1000;
        const ok = code === 0;
        process.stdout.write(
          `\n===== ${label}: ${ok ? 'passed' : `FAILED (${signal ?? code})`} in ${seconds.toFixed(0)} s =====\n`,
        );
        process.stdout.write(readFileSync(log, 'utf8'));
        results.push({ label, ok, seconds });
        resolve(ok);
      });
    });
  });
}

/** Runs steps one after the other, each whatever the previous one gave. */
async function lane(steps) {
  for (const s of steps) await run(s);
}

const started = performance.now();
const checkNode = await run(nodeScript('node version', 'scripts/check-node.mjs'));
if (!checkNode) process.exit(1);

// The other runtimes (Node 20, 22, Bun, from the npm registry) are installed once, here, before
// the lanes: the consumer test and the runtime suites would otherwise both install them at once.
const checks = [
  pnpmScript('lint', 'lint'),
  pnpmScript('typecheck', 'typecheck'),
  nodeScript('runtimes', 'scripts/runtimes.mjs'),
];
const build = pnpmScript('build', 'build');
if (SEQUENTIAL) await lane([...checks, build]);
else await Promise.all([lane(checks), run(build)]);
if (!results.find((r) => r.label === 'runtimes')?.ok) process.exitCode = 1;
if (!results.find((r) => r.label === 'build')?.ok) {
  console.log('\ntest-all: the build failed; the test suites need it.');
  process.exitCode = 1;
} else {
  const cpuLane = [
    nodeScript('chromium', 'scripts/ensure-chromium.mjs'),
    pnpmScript('vitest (Node 24)', 'test:vitest'),
    nodeScript('SDK on Node 22', 'scripts/test-runtimes.mjs', 'node22'),
    nodeScript('SDK on Bun', 'scripts/test-runtimes.mjs', 'bun'),
  ];
  const ioLane = [
    nodeScript('consumer', 'scripts/test-consumer.mjs'),
    nodeScript('schemathesis', 'scripts/test-schemathesis.mjs'),
    nodeScript('python', 'scripts/test-python.mjs'),
  ];
  if (SEQUENTIAL) await lane([...cpuLane, ...ioLane]);
  else await Promise.all([lane(cpuLane), lane(ioLane)]);
}

const minutes = (performance.now() - started) / 60_000;
console.log(
  `\ntest-all: ${minutes.toFixed(1)} min (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs); logs in ${LOGS}`,
);
for (const { label, ok, seconds } of results) {
  console.log(`  ${ok ? 'pass' : 'FAIL'}  ${label.padEnd(20)} ${seconds.toFixed(0).padStart(5)} s`);
}
if (results.some((r) => !r.ok)) process.exitCode = 1;
