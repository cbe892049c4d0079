// The Python SDK's test command: ruff (lint and format), mypy --strict and pytest, in a virtual
// environment under the repository (python/.venv, ignored by git) made with the machine's python3.
//
//   node scripts/test-python.mjs [pytest arguments...]
//   node scripts/test-python.mjs --setup-only   (only the environment: for bench/run.mjs)
//
// Creates the environment on first use and installs python/ with its pinned test extras; a later
// run reinstalls only when python/pyproject.toml changed. pytest starts the reference server (the
// build's packages/server/dist) with the project's Node 24, so run the build first. Prints a
// summary; exits 1 when a step fails. SVC_PYTHON names another interpreter than python3.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON_DIR = join(ROOT, 'python');
const VENV = join(PYTHON_DIR, '.venv');
const VENV_PYTHON = join(VENV, 'bin', 'python');
const STAMP = join(VENV, '.svc-run-installed');
const BUILD_BACKEND = ['hatchling==1.33.0', 'editables==0.6'];
const MIN_PYTHON = [3, 10];
const setupOnly = process.argv.includes('--setup-only');

function fail(message) {
  console.error(`test-python: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: PYTHON_DIR, stdio: 'inherit', ...options });
}

function pythonVersion(python) {
  const probe = spawnSync(python, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) return undefined;
  return probe.stdout.trim();
}

// 1. The machine's Python, 3.10 or newer.
const machinePython = process.env.SVC_PYTHON || 'python3';
const version = pythonVersion(machinePython);
if (version === undefined) {
  fail(
    `no Python found as "${machinePython}". The Python SDK needs Python ${MIN_PYTHON.join('.')} or newer: install it (with the venv module, e.g. apt-get install python3 python3-venv) or set SVC_PYTHON to its path.`,
  );
}
const [major, minor] = version.split('.').map(Number);
if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
  fail(
    `"${machinePython}" is Python ${version}; the Python SDK needs ${MIN_PYTHON.join('.')} or newer. Install a newer Python or set SVC_PYTHON to one.`,
  );
}

// 2. The build the tests use: the reference server and the project's Node 24.
const node24 = join(ROOT, 'node_modules', '.bin', 'node');
const serverDist = join(ROOT, 'packages', 'server', 'dist', 'index.js');
if (!existsSync(node24) || !existsSync(serverDist)) {
  fail(
    'the reference server is not built. Run `npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 build` first.',
  );
}

const steps = [];
function step(name, command, args, options) {
  const started = performance.now();
  const result = run(command, args, options);
  const seconds = (performance.now() - started) / 1000;
  const ok = !result.error && result.status === 0;
  steps.push({ name, ok, seconds });
  return ok;
}

function summary() {
  console.log('\nPython SDK summary');
  for (const { name, ok, seconds } of steps) {
    console.log(`  ${ok ? 'pass' : 'FAIL'}  ${name.padEnd(24)} ${seconds.toFixed(1).padStart(6)} s`);
  }
  const failed = steps.filter((s) => !s.ok).length;
  console.log(failed === 0 ? '  all steps passed' : `  ${failed} step(s) failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// 3. The virtual environment, made anew when the machine's Python changed.
const existing = existsSync(VENV_PYTHON) ? pythonVersion(VENV_PYTHON) : undefined;
if (existing !== version) {
  if (!step('create .venv', machinePython, ['-m', 'venv', '--clear', VENV])) summary();
}

// 4. Install python/ with its test extras when pyproject.toml changed since the last install.
const wanted = createHash('sha256')
  .update(version)
  .update(readFileSync(join(PYTHON_DIR, 'pyproject.toml')))
  .digest('hex');
const installed = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (installed !== wanted) {
  const pip = [VENV_PYTHON, '-m', 'pip', '--disable-pip-version-check', '--quiet'];
  const ok =
    step('install build backend', pip[0], [...pip.slice(1), 'install', ...BUILD_BACKEND]) &&
    step('install svc-run[test]', pip[0], [
      ...pip.slice(1),
      'install',
      '--no-build-isolation',
      '--editable',
      '.[test]',
    ]);
  if (!ok) summary();
  writeFileSync(STAMP, `${wanted}\n`);
} else {
  console.log('test-python: .venv is up to date');
}
if (setupOnly) process.exit(0);

// 5. Lint, format, types, tests.
const bin = (name) => join(VENV, 'bin', name);
step('ruff check', bin('ruff'), ['check', '.']);
step('ruff format --check', bin('ruff'), ['format', '--check', '.']);
step('mypy --strict', bin('mypy'), []);
step('pytest', VENV_PYTHON, ['-m', 'pytest', ...process.argv.slice(2)], {
  env: { ...process.env, SVC_NODE: node24, PYTHONDONTWRITEBYTECODE: '1' },
});
summary();
