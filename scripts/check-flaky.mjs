// Checks test files for timing flakiness: runs them several times on a chosen runtime while busy
// processes load every CPU, and reports how many runs failed. A test that passes here only some of
// the time depends on how fast the machine is; see CONTRIBUTING.md ("Tests that never race").
//
//   npx -y pnpm@10.34.8 exec node scripts/check-flaky.mjs [--runs 5] [--load <busy processes>] [--runtime node24|node22|bun] <test files>
//
// Files are given as vitest takes them: relative to the repository (`packages/sdk/src/x.test.ts`)
// for Node 24; relative to `packages/sdk` (`src/x.test.ts`) for node22 and bun, which run the SDK's
// suite only (through `scripts/test-runtimes.mjs`). `--load` defaults to one busy process per CPU.
// Needs the build (`pnpm build`). Exits 1 when any run failed.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(
    `check-flaky: Node ${process.version} cannot run the server (no node:sqlite); run it with the project's Node 24: npx -y pnpm@10.34.8 exec node scripts/check-flaky.mjs …`,
  );
  process.exit(2);
}
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    load: { type: 'string', default: String(availableParallelism()) },
    runtime: { type: 'string', default: 'node24' },
  },
});
const runs = Number(values.runs);
const load = Number(values.load);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(load) || load < 0 || positionals.length === 0) {
  console.error(
    'usage: npx -y pnpm@10.34.8 exec node scripts/check-flaky.mjs [--runs N] [--load N] [--runtime node24|node22|bun] <test files>',
  );
  process.exit(2);
}
const command = {
  node24: [process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...positionals]],
  node22: [process.execPath, [join(ROOT, 'scripts', 'test-runtimes.mjs'), 'node22', '--', ...positionals]],
  bun: [process.execPath, [join(ROOT, 'scripts', 'test-runtimes.mjs'), 'bun', '--', ...positionals]],
}[values.runtime];
if (command === undefined) {
  console.error(`check-flaky: unknown runtime '${values.runtime}'; use node24, node22 or bun`);
  process.exit(2);
}

const busy = Array.from({ length: load }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBusy = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stopBusy);

const outcomes = [];
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  const result = spawnSync(command[0], command[1], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--disable-warning=ExperimentalWarning' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  outcomes.push(ok);
  console.log(
    `check-flaky: run ${run}/${runs} on ${values.runtime} with ${load} busy: ${ok ? 'pass' : 'FAIL'} (${seconds} s)`,
  );
  if (!ok)
    console.log(
      `${result.stdout}\n${result.stderr}`
        .split('\n')
        .filter((l) => /FAIL|×|Error|seed|rerun/.test(l))
        .join('\n'),
    );
}
stopBusy();
const failed = outcomes.filter((ok) => !ok).length;
console.log(`check-flaky: ${failed} of ${runs} runs failed`);
process.exit(failed === 0 ? 0 : 1);
