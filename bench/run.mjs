/**
 * `pnpm bench`: checks that this Node can run the server (`node:sqlite`, Node 22.13+; the project
 * uses Node 24 through pnpm), then runs the ingest benchmark (`ingest.mjs`) and the SDK overhead
 * benchmark (`sdk-overhead.mjs`) and the media
 * benchmarks (`media-scan.mjs`, `media-upload.mjs`) and the evaluation
 * runner benchmark (`eval-runner.mjs`), the `svc eval --set` benchmark (`svc-eval.mjs`), the viewer benchmark (`viewer.mjs`), the MCP tool server benchmark (`mcp.mjs`) and
 * the scenarios benchmark (`scenarios.mjs`), then the Python SDK's benchmark (`python/bench/bench_python.py`,
 * in the `python/.venv` that `scripts/test-python.mjs --setup-only` makes or keeps).
 * @module
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(
    `bench: Node ${process.version} is too old (no node:sqlite); run it with the project's Node 24 ` +
      'through pnpm: `npx -y pnpm@10.34.8 bench` (or `npx -y pnpm@10.34.8 exec node bench/run.mjs`).',
  );
  process.exit(1);
}
await import('./ingest.mjs');
await import('./sdk-overhead.mjs');
await import('./media-scan.mjs');
await import('./media-upload.mjs');
await import('./eval-runner.mjs');
await import('./svc-eval.mjs');
await import('./viewer.mjs');
await import('./mcp.mjs');
await import('./scenarios.mjs');

// The Python SDK: span() overhead against plain OpenTelemetry Python, and the media scan.
{
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const setup = spawnSync(process.execPath, ['scripts/test-python.mjs', '--setup-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  const bench =
    setup.status === 0
      ? spawnSync(`${root}python/.venv/bin/python`, ['python/bench/bench_python.py'], {
          cwd: root,
          stdio: 'inherit',
          env: { ...process.env, SVC_NODE: process.execPath },
        })
      : undefined;
  if (bench?.status !== 0) {
    console.error('bench: the Python SDK benchmark did not run to the end');
    process.exitCode = 1;
  }
}
