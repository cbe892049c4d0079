/**
 * What the benchmarks share: environment settings, a seeded generator, the child-process protocol
 * (`ready` / `close` / ask-and-answer over IPC) and number formatting.
 * @module
 */
import { fork } from 'node:child_process';

/** An integer setting from the environment, at least `min`; `fallback` when unset. */
export function envInt(name, fallback, min) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer ≥ ${min}; got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A small fast seeded PRNG (mulberry32): same seed, same content. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The next IPC message of one of `types` from `child`; rejects if it exits or times out first. */
export function nextMessage(child, types, timeoutMs = 60_000) {
  const wanted = [types].flat();
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      cleanup();
      fail(new Error(`${child.benchName}: no '${wanted.join("' or '")}' message within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message) => {
      if (!wanted.includes(message?.type)) return;
      cleanup();
      done(message);
    };
    const onExit = (code, signal) => {
      cleanup();
      fail(
        new Error(`${child.benchName} exited (${signal ?? code}) before sending '${wanted.join("' or '")}'`),
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** The environment of the children, without OTEL_* variables (they would configure one side). */
function childEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
}

/** The child processes of one benchmark run. */
export class Children {
  #running = new Set();

  /**
   * Forks `script` with this Node (pnpm's Node 24) and waits for its `ready` message. With
   * `cpuProfDir`, the child writes a CPU profile named after `name` there.
   */
  async start(script, name, { cpuProfDir } = {}) {
    // node:sqlite warns that it is experimental on every start; that is noise here.
    const execArgv = ['--disable-warning=ExperimentalWarning'];
    if (cpuProfDir)
      execArgv.push('--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-name=${name}.cpuprofile`);
    const child = fork(script, [], {
      execPath: process.execPath,
      execArgv,
      env: childEnv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.benchName = name;
    this.#running.add(child);
    const exited = new Promise((done) => child.once('exit', done));
    child.once('exit', () => this.#running.delete(child));
    const ready = await nextMessage(child, 'ready');
    return { child, name, exited, origin: ready.origin, key: ready.key, readKey: ready.readKey };
  }

  /** Asks a child to close and waits for it to exit (killing it after 15 s). */
  async stop({ child, exited }) {
    if (child.exitCode === null && child.signalCode === null) child.send({ type: 'close' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  /** Kills every child still running (on errors and on exit). */
  killAll() {
    for (const child of this.#running) child.kill('SIGKILL');
  }
}

/** Sends `{ type }` to a started child and resolves with its answer of the same type. */
export async function ask(started, type) {
  const answer = nextMessage(started.child, type);
  started.child.send({ type });
  return answer;
}

/**
 * Runs a benchmark's `main`: a watchdog ends a hung run after `watchdogMs`, and a failure kills
 * the children and sets a failing exit code.
 */
export async function runBench(label, main, children, watchdogMs) {
  const watchdog = setTimeout(() => {
    console.error(`bench: ${label} still running after ${watchdogMs / 60000} minutes; giving up`);
    children.killAll();
    process.exit(1);
  }, watchdogMs);
  watchdog.unref();
  try {
    await main();
  } catch (error) {
    console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    children.killAll();
    process.exitCode = 1;
  }
}

export const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
export const fmt = (n, digits = 1) => n.toFixed(digits);
export const pad = (s, n) => String(s).padEnd(n);
export const padLeft = (s, n) => String(s).padStart(n);
