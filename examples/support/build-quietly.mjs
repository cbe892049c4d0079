/**
 * `pnpm demo`'s build step: builds the packages (`pnpm run build`) without showing the build's
 * own output, unless it fails: then its output is printed and the demo stops with its exit code.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// Under `pnpm demo`, npm_execpath is the pnpm that runs it; else the pinned pnpm through npx.
const pnpm = process.env.npm_execpath;
const [command, args] =
  pnpm && /\.(c?js|mjs)$/.test(pnpm)
    ? [process.execPath, [pnpm, 'run', 'build']]
    : ['npx', ['-y', 'pnpm@10.34.8', 'run', 'build']];
process.stdout.write('Building the packages… ');
const build = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (build.status !== 0) {
  console.log('failed:\n');
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  if (build.error) console.error(build.error.message);
  process.exit(build.status ?? 1);
}
console.log('done.');
