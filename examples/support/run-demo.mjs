/**
 * What the examples' demos share: start the reference server on a data directory under
 * `.svc-data/` (kept after the run), run the example's program against it in a child Node
 * process, then either stop the server and exit with the program's exit code, or — for a demo
 * that names a page of the viewer to land on (`viewer`) — print a one-time login link to that page
 * and keep the server running until Ctrl-C, so the link opens. node:sqlite's experimental warning
 * (only that one) is hidden in this process.
 *
 * Environment: `SVC_DEMO_DATA` replaces the data directory (tests use a temporary one); with
 * `CI` set the server is not kept running: the demo prints how to reopen the viewer and exits.
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

/**
 * Runs `program` with this Node, its output passed through as it comes; resolves with its exit
 * code (128 + the signal's number when killed) and its standard output.
 */
function runProgram(program, options) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', program], {
      ...options,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.once('error', reject);
    child.once('close', (exitCode, signal) =>
      done({ code: exitCode ?? 128 + (constants.signals[signal] ?? 0), output }),
    );
  });
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped() {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
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
 * @param {(server: object, output: string) => Promise<string | undefined>} [demo.viewer] - The
 *   viewer page to land on after a successful run (from the program's output), or `undefined`.
 */
export async function runDemo(demo) {
  // The filter must be in place before the server module loads node:sqlite, hence `loadServer`.
  hideSqliteWarning();
  const { startServer } = await demo.loadServer();
  const dataDir = process.env.SVC_DEMO_DATA
    ? resolve(process.env.SVC_DEMO_DATA)
    : join(repoRoot, '.svc-data', demo.dataDirectory);
  const shownDataDir = relative(process.cwd(), dataDir) || '.';
  const server = await startServer({ dataDir });
  console.log(`svc-run server: ${server.origin} (data: ${shownDataDir})`);
  console.log(`Running examples/${demo.name}/index.ts with ${demo.keyDescription}…\n`);

  let code = 1;
  let landing;
  try {
    const run = await runProgram(join(repoRoot, 'examples', demo.name, 'index.ts'), {
      ...(demo.inRepoRoot ? { cwd: repoRoot } : {}),
      env: { ...process.env, ...demo.env(server) },
    });
    code = run.code;
    if (code === 0 && demo.viewer) landing = await demo.viewer(server, run.output);
  } catch (error) {
    console.error(`demo: could not run the ${demo.name}: ${error instanceof Error ? error.message : error}`);
  }

  if (code !== 0) {
    await server.close();
    console.log(`\nDemo failed (exit code ${code}).`);
    process.exit(code);
  }
  const reopen = `npx -y pnpm@10.34.8 exec svc serve --data ${shownDataDir}`;
  if (landing === undefined || process.env.CI) {
    await server.close();
    console.log(`\nDemo ${demo.success ?? 'passed'}. The server stopped; its data stays in ${shownDataDir}.`);
    if (landing !== undefined) {
      console.log(
        `To see the trace in the viewer: ${reopen}, open the login link it prints, then ${landing}`,
      );
    }
    process.exit(0);
  }
  console.log(
    `\nDemo ${demo.success ?? 'passed'}. See the trace in the viewer (a one-time login link, valid 15 minutes):`,
  );
  console.log(`  ${server.viewerLoginLink(landing)}`);
  console.log(`The server keeps running so that the link opens; press Ctrl-C to stop it.`);
  console.log(`Later: \`${reopen}\` serves the same data and prints a new login link.`);
  await untilStopped();
  await server.close();
  console.log(`Stopped. The data stays in ${shownDataDir}.`);
  process.exit(0);
}

/**
 * The viewer page of the trace a program printed (`Trace: <origin>/traces/<traceId>`), selecting
 * the first span (in start order) whose messages hold an image, when there is one.
 *
 * @param {object} server - The running server (`readModel`).
 * @param {string} output - The program's standard output.
 * @returns {Promise<string | undefined>}
 */
export async function traceWithImage(server, output) {
  const traceId = /^Trace: \S*\/traces\/([0-9a-f]{32})\s*$/m.exec(output)?.[1];
  if (traceId === undefined) return undefined;
  const outline = await server.readModel.traceOutline(traceId);
  for (const span of outline.spans) {
    if (span.fileCount === 0) continue;
    const detail = await server.readModel.spanDetail(traceId, span.spanId, { includeContent: false });
    const hasImage = detail.messages.some((message) =>
      message.parts.some((part) => part.type === 'file' && part.file.contentType.startsWith('image/')),
    );
    if (hasImage) return `/traces/${traceId}?span=${span.spanId}`;
  }
  return `/traces/${traceId}`;
}
