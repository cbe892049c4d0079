// Tests the packages as a consumer installs them (msw's test/modules/node/esm-node.test.ts is the
// model): packs every package as it is published (`pnpm pack`, which replaces `workspace:` ranges),
// checks what each tarball holds and that its dependencies are what its code imports (caret
// ranges), lints them (`publint --strict`, `attw --profile esm-only`), then
// installs the tarballs with npm into temporary ESM projects and runs programs there
// (scripts/consumer/):
//
// - base-check.mjs, in a project with the three packages only: every entry imports
//   (`@svc-run/sdk`, `/ai-sdk`, `/evals`, `/managed`, `@svc-run/server`, `@svc-run/cli`), the error
//   classes are one set across entries, spans carry the package.json version, a span reaches the
//   installed server with no `ai` installed, and the installed `svc` answers --help, --version,
//   serves, and lists the served MCP tools (`svc mcp --check`);
// - runtime-check.mjs, in that project on Node.js 20 (refused with UnsupportedRuntimeError),
//   Node.js 22 and Bun 1.4 (accepted);
// - ai-sdk-check.mjs, in one project per AI SDK version of the spec (ai@7.0.99 + @ai-sdk/otel@1.0.99,
//   ai@7.0.100 + @ai-sdk/otel@1.0.100) and ai@6: a real generateText recorded through the SDK's
//   telemetry helper and stored by the server, and a hosted judge job through that `ai`.
//
//   node scripts/test-consumer.mjs [--keep]
//
// Needs the build (`pnpm build`). npm's cache lives in node_modules/.cache/svc-consumer (nothing is
// kept outside the repository); the projects are made in a temporary directory, removed at the end
// unless a check failed or --keep is given. Node.js 20, 22 and Bun come from scripts/runtimes.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBun, ensureNode20, ensureNode22 } from './runtimes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROGRAMS = join(ROOT, 'scripts', 'consumer');
const NPM_CACHE = join(ROOT, 'node_modules', '.cache', 'svc-consumer', 'npm');
const BIN = join(ROOT, 'node_modules', '.bin');
const WINDOWS = process.platform === 'win32';
const PACKAGES = ['sdk', 'server', 'cli'];
// The spec's installed-package pairs, and AI SDK v6 (what `npm install ai@6` gives today).
const AI_PROJECTS = [
  { name: 'ai-7.0.99', dependencies: ['ai@7.0.99', '@ai-sdk/otel@1.0.99'], major: 'v7' },
  { name: 'ai-7.0.100', dependencies: ['ai@7.0.100', '@ai-sdk/otel@1.0.100'], major: 'v7' },
  { name: 'ai-6', dependencies: ['ai@6'], major: 'v6' },
];

const keep = process.argv.includes('--keep');
const results = { passed: 0, failed: 0 };
const started = performance.now();

/** Runs a command; resolves with its exit code and output (never rejects on a failing exit). */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], shell: WINDOWS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Like `run`, but a failing exit rejects with the command and its output. */
async function runOk(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim();
    throw new Error(`${[command, ...args].join(' ')} exited ${result.code ?? result.signal}\n${output}`);
  }
  return result;
}

/** Runs one named check, printing ✓ or ✗ with its time; a failure is counted, not thrown. */
async function check(name, body) {
  const start = performance.now();
  try {
    const detail = await body();
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    console.log(`✓ ${name} (${seconds} s)`);
    if (typeof detail === 'string' && detail.trim() !== '') console.log(indent(detail.trim()));
    results.passed += 1;
    return true;
  } catch (error) {
    console.log(`✗ ${name}`);
    console.log(indent(error instanceof Error ? (error.stack ?? error.message) : String(error)));
    results.failed += 1;
    return false;
  }
}

function indent(text) {
  return text.replace(/^/gm, '    ');
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** pnpm as the test command runs it, else through npx. */
function pnpm(args) {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(execpath)) return [process.execPath, [execpath, ...args]];
  return [WINDOWS ? 'npx.cmd' : 'npx', ['-y', 'pnpm@10.34.8', ...args]];
}

const npm = WINDOWS ? 'npm.cmd' : 'npm';
// npm as a consumer runs it: without the `npm_*` variables pnpm sets for its scripts (npm would read
// them as its own configuration, its user agent included).
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** The files of a tarball, and the text of one of them. */
function tarList(tarball) {
  const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  assert(listed.status === 0, `tar -tzf ${tarball}: ${listed.stderr}`);
  return listed.stdout.split('\n').filter(Boolean);
}

function tarRead(tarball, path) {
  const read = spawnSync('tar', ['-xzOf', tarball, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert(read.status === 0, `tar -xzOf ${tarball} ${path}: ${read.stderr}`);
  return read.stdout;
}

/** Makes an ESM project in `dir` and installs `specs` into it with npm. */
async function installProject(dir, specs) {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'svc-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await runOk(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--loglevel=error',
      '--cache',
      NPM_CACHE,
      ...specs,
    ],
    { cwd: dir, env: npmEnv },
  );
  return dir;
}

// ─── Pack ─────────────────────────────────────────────────────────────────────────────────────

for (const name of PACKAGES) {
  if (!existsSync(join(ROOT, 'packages', name, 'dist'))) {
    console.error(
      `test-consumer: packages/${name}/dist is missing; build first (npx -y pnpm@10.34.8 build).`,
    );
    process.exit(1);
  }
}

const work = await mkdtemp(join(tmpdir(), 'svc-consumer-'));
const tarballDir = join(work, 'tarballs');
await mkdir(tarballDir);
console.log(`test-consumer: packing into ${tarballDir}`);

const tarballs = {};
const packed = await check('pnpm pack of every package', async () => {
  for (const name of PACKAGES) {
    const [command, args] = pnpm(['pack', '--pack-destination', tarballDir]);
    await runOk(command, args, { cwd: join(ROOT, 'packages', name) });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8'));
    tarballs[name] = join(tarballDir, `svc-run-${name}-${version}.tgz`);
    assert(existsSync(tarballs[name]), `no ${tarballs[name]} after pnpm pack`);
  }
  return readdirSync(tarballDir).join(', ');
});
if (!packed) {
  console.log(`\ntest-consumer: the tarballs are kept in ${tarballDir}`);
  console.log(`test-consumer: ${results.passed} passed, ${results.failed} failed`);
  process.exit(1);
}

const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
await check('each tarball: LICENSE, CHANGELOG, README, built files only, no workspace: ranges', () => {
  const versions = new Set();
  for (const [name, tarball] of Object.entries(tarballs)) {
    const files = tarList(tarball);
    for (const required of [
      'package/package.json',
      'package/LICENSE',
      'package/CHANGELOG.md',
      'package/README.md',
    ]) {
      assert(files.includes(required), `${name}: ${required} is missing from the tarball`);
    }
    const stray = files.filter((file) => !/^package\/(dist\/|bin\/|[^/]+$)/.test(file));
    assert(stray.length === 0, `${name}: files outside dist/ and bin/: ${stray.join(', ')}`);
    const rootFiles = files.filter((file) => /^package\/[^/]+$/.test(file)).sort();
    assert(
      rootFiles.join() === 'package/CHANGELOG.md,package/LICENSE,package/README.md,package/package.json',
      `${name}: unexpected top-level files: ${rootFiles.join(', ')}`,
    );
    assert(tarRead(tarball, 'package/LICENSE') === license, `${name}: LICENSE differs from the repository's`);
    const manifestText = tarRead(tarball, 'package/package.json');
    assert(!manifestText.includes('workspace:'), `${name}: package.json keeps a workspace: range`);
    const manifest = JSON.parse(manifestText);
    versions.add(manifest.version);
    assert(
      tarRead(tarball, 'package/CHANGELOG.md').includes(`\n## ${manifest.version}`),
      `${name}: CHANGELOG.md has no section for ${manifest.version}`,
    );
  }
  assert(versions.size === 1, `the packages have different versions: ${[...versions].join(', ')}`);
  return `version ${[...versions][0]}`;
});

// A runtime dependency that the built code does not import, and why the package still needs it.
const NEEDED_WITHOUT_IMPORT = {
  server: { zod: 'a peer dependency of @hono/zod-openapi, which builds its schemas with it' },
};

/** The packages the built JavaScript of a tarball imports (bare specifiers, `node:` left out). */
function importedPackages(tarball, files) {
  const names = new Set();
  for (const file of files.filter((path) => /^package\/dist\/.*\.js$/.test(path))) {
    const text = tarRead(tarball, file);
    for (const [, specifier] of text.matchAll(
      // A package specifier's characters only: prose such as `"from", "` is not an import.
      /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([@\w][\w@./-]*)["']/g,
    )) {
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return names;
}

await check('each tarball: dependencies are what its code imports, with caret ranges', () => {
  const lines = [];
  for (const [name, tarball] of Object.entries(tarballs)) {
    const manifest = JSON.parse(tarRead(tarball, 'package/package.json'));
    const dependencies = manifest.dependencies ?? {};
    const peers = manifest.peerDependencies ?? {};
    const imported = importedPackages(tarball, tarList(tarball));
    const undeclared = [...imported].filter((pkg) => !(pkg in dependencies) && !(pkg in peers));
    assert(undeclared.length === 0, `${name} imports undeclared packages: ${undeclared.join(', ')}`);
    const unused = Object.keys(dependencies).filter(
      (pkg) => !imported.has(pkg) && NEEDED_WITHOUT_IMPORT[name]?.[pkg] === undefined,
    );
    assert(unused.length === 0, `${name} depends on packages nothing imports: ${unused.join(', ')}`);
    for (const [pkg, range] of Object.entries(dependencies)) {
      if (pkg.startsWith('@svc-run/')) {
        // The packages move together: the CLI runs the server of its own version.
        assert(range === manifest.version, `${name}: ${pkg}@${range} is not ${manifest.version}`);
      } else {
        assert(/^\^\d+\.\d+\.\d+$/.test(range), `${name}: ${pkg}@${range} is not a caret range`);
      }
    }
    lines.push(
      `${manifest.name}: ${Object.keys(dependencies).length} dependencies, peers ${JSON.stringify(peers)}`,
    );
  }
  return lines.join('\n');
});

await check('npm pack refuses to write a tarball that keeps workspace: ranges', async () => {
  const result = await run(npm, ['pack', '--dry-run', '--loglevel=error'], {
    cwd: join(ROOT, 'packages', 'cli'),
    env: npmEnv,
  });
  assert(result.code !== 0, 'npm pack succeeded');
  assert(
    result.stderr.includes('Pack and publish this package with pnpm'),
    `npm pack failed without saying why:\n${result.stderr}`,
  );
});

// ─── Lint the tarballs, while the projects install ──────────────────────────────────────────────

const runtimes = {};
await check('runtimes: Node.js 20, Node.js 22, Bun 1.4 (scripts/runtimes.mjs)', () => {
  runtimes.node20 = ensureNode20();
  runtimes.node22 = ensureNode22();
  runtimes.bun = ensureBun();
});

const base = join(work, 'base');
const installs = {
  base: installProject(base, [
    tarballs.sdk,
    tarballs.server,
    tarballs.cli,
    '@opentelemetry/sdk-trace@^3.1.1',
  ]),
};
for (const project of AI_PROJECTS) {
  installs[project.name] = installProject(join(work, project.name), [
    tarballs.sdk,
    tarballs.server,
    ...project.dependencies,
  ]);
}
// Awaited below, each by its check; a failed install must not be an unhandled rejection meanwhile.
for (const install of Object.values(installs)) install.catch(() => undefined);

for (const [name, tarball] of Object.entries(tarballs)) {
  // Both exit non-zero on a problem (publint --strict on warnings too); the output is shown then.
  await check(`publint --strict @svc-run/${name}`, async () => {
    await runOk(join(BIN, 'publint'), ['run', tarball, '--strict']);
  });
  await check(`attw --profile esm-only @svc-run/${name}`, async () => {
    await runOk(join(BIN, 'attw'), [tarball, '--profile', 'esm-only', '--no-color', '--no-emoji']);
  });
}

// ─── Installed packages ──────────────────────────────────────────────────────────────────────

/** Copies a program of scripts/consumer into a project and runs it there. */
async function runProgram(project, program, runtime, args = []) {
  await copyFile(join(PROGRAMS, program), join(project, program));
  const runtimeArgs = runtime === process.execPath ? ['--disable-warning=ExperimentalWarning'] : [];
  const { stdout, stderr } = await runOk(runtime, [...runtimeArgs, program, ...args], { cwd: project });
  return `${stdout}${stderr}`;
}

const baseInstalled = await check('npm install of the three tarballs into an ESM project', async () => {
  await installs.base;
});
if (baseInstalled) {
  await check('the installed packages, on Node.js 24', () =>
    runProgram(base, 'base-check.mjs', process.execPath),
  );
  await check('the installed SDK on Node.js 20: refused', () =>
    runProgram(base, 'runtime-check.mjs', runtimes.node20, ['unsupported']),
  );
  await check('the installed SDK on Node.js 22: accepted', () =>
    runProgram(base, 'runtime-check.mjs', runtimes.node22, ['supported']),
  );
  await check('the installed SDK on Bun 1.4: accepted', () =>
    runProgram(base, 'runtime-check.mjs', runtimes.bun, ['supported']),
  );
}

for (const project of AI_PROJECTS) {
  const dir = join(work, project.name);
  await check(`${project.dependencies.join(' + ')} with the packed SDK and server`, async () => {
    await installs[project.name];
    return runProgram(dir, 'ai-sdk-check.mjs', process.execPath, [project.major]);
  });
}

// ─── Done ─────────────────────────────────────────────────────────────────────────────────────

const seconds = ((performance.now() - started) / 1000).toFixed(0);
if (results.failed === 0 && !keep) await rm(work, { recursive: true, force: true });
else console.log(`\ntest-consumer: the projects are kept in ${work}`);
console.log(`\ntest-consumer: ${seconds} s`);
console.log(`test-consumer: ${results.passed} passed, ${results.failed} failed`);
process.exitCode = results.failed === 0 ? 0 : 1;
