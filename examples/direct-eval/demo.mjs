/**
 * `pnpm --filter @svc-run/example-direct-eval demo`: starts the reference server on
 * `.svc-data/direct-eval-demo` (kept after the run; `SVC_DEMO_DATA` replaces it), writes an env
 * file with its origin and Read-and-write key there, creates the eval set and scorer
 * (`setup.mjs`), and runs `svc eval --set policy-summaries …` with the agent command
 * (`agent.mjs`); its report is printed as it comes. Then it prints a one-time login link to the
 * run in the viewer and keeps the server running until Ctrl-C, so the link opens (with `CI` set
 * it stops at once). It exits with `svc eval`'s exit code: 1 here, one case fails on purpose.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '../..');
const svc = fileURLToPath(new URL('../../packages/cli/bin/svc.mjs', import.meta.url));

// Hide node:sqlite's experimental warning (only that one) before the server loads it.
const emitWarning = process.emitWarning;
process.emitWarning = function filtered(warning, ...rest) {
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0]?.type ?? warning?.name);
  if (type === 'ExperimentalWarning' && /SQLite/i.test(String(warning?.message ?? warning))) return;
  return emitWarning.call(this, warning, ...rest);
};
const { startServer } = await import('@svc-run/server');

/** Runs Node with `args`; resolves with its exit code and (with `capture`) its stdout. */
function run(args, { capture = false, ...options } = {}) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
      ...options,
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => done({ code: code ?? (signal ? 1 : 0), stdout }));
  });
}

const dataDir = process.env.SVC_DEMO_DATA || join(repoRoot, '.svc-data', 'direct-eval-demo');
mkdirSync(dataDir, { recursive: true });
const server = await startServer({ dataDir });
let code = 1;
try {
  const envFile = join(dataDir, 'direct-eval.env');
  writeFileSync(envFile, `SVC_BASE_URL=${server.origin}\nSVC_API_KEY=${server.keys.readWrite}\n`, {
    mode: 0o600,
  });
  console.log(`svc-run server: ${server.origin}\n`);
  ({ code } = await run([`--env-file=${envFile}`, join(here, 'setup.mjs')]));
  if (code === 0) {
    console.log('\n$ svc eval --set policy-summaries --scorer key-terms --command "node agent.mjs" …\n');
    // --json: the document on stdout (read here for the run's ID), the report on stderr.
    const evaluated = await run(
      [
        svc,
        'eval',
        ...['--set', 'policy-summaries', '--scorer', 'key-terms'],
        ...['--command', `node ${JSON.stringify(join(here, 'agent.mjs'))}`],
        ...['--revision', 'demo', '--env-file', envFile, '--checkpoint-dir', join(dataDir, 'runs'), '--json'],
      ],
      { cwd: repoRoot, capture: true },
    );
    code = evaluated.code;
    const experimentId = evaluated.stdout === '' ? undefined : JSON.parse(evaluated.stdout).experimentId;
    if (experimentId !== undefined) {
      const link = server.viewerLoginLink(`/experiments/${experimentId}`);
      if (process.env.CI) {
        console.log(
          `\nThe run in the viewer: serve this data again (svc serve --data ${dataDir}) and open its run link.`,
        );
      } else {
        console.log(
          `\nThe run in the viewer (a one-time login link, valid 15 minutes):\n${link}\nPress Ctrl-C to stop the server.`,
        );
        await new Promise((done) => {
          process.once('SIGINT', done);
          process.once('SIGTERM', done);
        });
      }
    }
  }
} finally {
  await server.close();
}
process.exit(code);
