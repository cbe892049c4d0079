/**
 * `pnpm bench`: checks that this Node can run the server (`node:sqlite`, Node 22.13+; the project
 * uses Node 24 through pnpm), then runs the ingest benchmark (`ingest.mjs`) and the SDK overhead
 * benchmark (`sdk-overhead.mjs`) and the media
 * benchmarks (`media-scan.mjs`, `media-upload.mjs`) and the evaluation
 * runner benchmark (`eval-runner.mjs`).
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
