/**
 * `pnpm --filter @svc-run/example-experiment demo`: starts the reference server on
 * `.svc-data/experiment-demo` (kept after the run), runs the experiment program against it with a
 * Read-and-write key, stops the server and exits with the program's exit code.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const dataDir = join(repoRoot, '.svc-data', 'experiment-demo');

// node:sqlite is still experimental: hide its warning (only that one) in this process. The filter
// must be in place before the server module loads node:sqlite, hence the dynamic import below.
const emitWarning = process.emitWarning;
process.emitWarning = function filteredEmitWarning(warning, ...rest) {
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0]?.type ?? warning?.name);
  const message = typeof warning === 'string' ? warning : warning?.message;
  if (type === 'ExperimentalWarning' && /SQLite/i.test(String(message))) return;
  return emitWarning.call(this, warning, ...rest);
};

const { startServer } = await import('@svc-run/server');

const server = await startServer({ dataDir });
console.log(`svc-run server: ${server.origin} (data: ${relative(process.cwd(), server.dataDir) || '.'})`);
console.log('Running examples/experiment/index.ts with a Read-and-write key…\n');

let code = 1;
try {
  code = await new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(here, 'index.ts')], {
      cwd: repoRoot, // the checkpoints go to .svc-checkpoints/ there (ignored by git)
      stdio: 'inherit',
      env: { ...process.env, SVC_BASE_URL: server.origin, SVC_API_KEY: server.keys.readWrite },
    });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => done(exitCode ?? 128 + (constants.signals[signal] ?? 0)));
  });
} catch (error) {
  console.error(`demo: could not run the experiment: ${error instanceof Error ? error.message : error}`);
} finally {
  await server.close();
}

console.log(
  code === 0
    ? `\nDemo done. The server stopped; its data stays in ${relative(process.cwd(), dataDir)}.`
    : `\nDemo failed (exit code ${code}).`,
);
process.exit(code);
