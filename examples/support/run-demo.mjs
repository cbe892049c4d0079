/**
 * What the examples' demos share: start the reference server on a data directory under
 * `.svc-data/` (kept after the run), run the example's program against it in a child Node
 * process, stop the server and exit with the program's exit code. node:sqlite's experimental
 * warning (only that one) is hidden in this process.
 * @module
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Hides node:sqlite's experimental warning, and only that one, in this process. */
function hideSqliteWarning() {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filteredEmitWarning(warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0]?.type ?? warning?.name);
    const message = typeof warning === 'string' ? warning : warning?.message;
    if (type === 'ExperimentalWarning' && /SQLite/i.test(String(message))) return;
    return emitWarning.call(this, warning, ...rest);
  };
}

/** Runs `program` with this Node; resolves with its exit code (128 + the signal's number when killed). */
function runProgram(program, options) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', program], {
      ...options,
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => done(exitCode ?? 128 + (constants.signals[signal] ?? 0)));
  });
}

/**
 * Runs a demo and exits with the program's exit code.
 *
 * @param {object} demo
 * @param {string} demo.name - The example's directory under `examples/` (its program is `index.ts`).
 * @param {string} demo.dataDirectory - The server's data directory under `.svc-data/`.
 * @param {string} demo.keyDescription - Which key the program gets, as the demo says it (e.g. `a tracing key`).
 * @param {() => Promise<{ startServer: Function }>} demo.loadServer - Imports `@svc-run/server`
 *   (from the example, which depends on it); called once the warning filter is in place.
 * @param {(server: object) => Record<string, string>} demo.env - The program's variables (origin, keys).
 * @param {boolean} [demo.inRepoRoot] - Runs the program in the repository root (else in this directory).
 * @param {string} [demo.success] - How the end of a successful run is told: `passed` (default) or `done`.
 */
export async function runDemo(demo) {
  // The filter must be in place before the server module loads node:sqlite, hence `loadServer`.
  hideSqliteWarning();
  const { startServer } = await demo.loadServer();
  const dataDir = join(repoRoot, '.svc-data', demo.dataDirectory);
  const server = await startServer({ dataDir });
  console.log(`svc-run server: ${server.origin} (data: ${relative(process.cwd(), server.dataDir) || '.'})`);
  console.log(`Running examples/${demo.name}/index.ts with ${demo.keyDescription}…\n`);

  let code = 1;
  try {
    code = await runProgram(join(repoRoot, 'examples', demo.name, 'index.ts'), {
      ...(demo.inRepoRoot ? { cwd: repoRoot } : {}),
      env: { ...process.env, ...demo.env(server) },
    });
  } catch (error) {
    console.error(`demo: could not run the ${demo.name}: ${error instanceof Error ? error.message : error}`);
  } finally {
    await server.close();
  }

  console.log(
    code === 0
      ? `\nDemo ${demo.success ?? 'passed'}. The server stopped; its data stays in ${relative(process.cwd(), dataDir)}.`
      : `\nDemo failed (exit code ${code}).`,
  );
  process.exit(code);
}
