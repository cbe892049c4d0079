/**
 * `pnpm --filter @svc-run/example-direct-eval demo`: starts the reference server on
 * `.svc-data/direct-eval-demo` (kept after the run), writes its env file there, creates the eval
 * set and scorer (`setup.mjs`), runs `svc eval --set policy-summaries …` with the agent command
 * (`agent.mjs`), stops the server and exits with `svc eval`'s exit code (1 here: one case fails on
 * purpose).
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

function run(args, options = {}) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const dataDir = join(repoRoot, '.svc-data', 'direct-eval-demo');
mkdirSync(dataDir, { recursive: true });
const server = await startServer({ dataDir });
let code = 1;
try {
  const envFile = join(dataDir, 'direct-eval.env');
  writeFileSync(envFile, `SVC_BASE_URL=${server.origin}\nSVC_API_KEY=${server.keys.readWrite}\n`, {
    mode: 0o600,
  });
  console.log(`svc-run server: ${server.origin}\n`);
  code = await run([`--env-file=${envFile}`, join(here, 'setup.mjs')]);
  if (code === 0) {
    console.log('\n$ svc eval --set policy-summaries --scorer key-terms --command "node agent.mjs" …\n');
    code = await run(
      [
        svc,
        'eval',
        '--set',
        'policy-summaries',
        '--scorer',
        'key-terms',
        '--command',
        `node ${JSON.stringify(join(here, 'agent.mjs'))}`,
        '--revision',
        'demo',
        '--env-file',
        envFile,
        '--checkpoint-dir',
        join(dataDir, 'runs'),
      ],
      { cwd: repoRoot },
    );
  }
} finally {
  await server.close();
}
process.exit(code);
