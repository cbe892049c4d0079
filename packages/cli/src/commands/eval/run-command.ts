/**
 * Runs an agent command once: through the shell, in its own process group (so that a timeout or
 * Ctrl-C stops everything it started), with stdin closed and stdout and stderr kept bounded.
 * @module
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { type StreamTail, TailBuffer } from './stream-tail.js';

/** How much of stdout and of stderr is kept: the last 16 KiB of each. */
export const MAX_STREAM_BYTES = 16 * 1024;

/** How long a command stopped by SIGTERM has to end before SIGKILL. */
const TERMINATE_GRACE_MILLIS = 5_000;

/** How long to wait for the output pipes to close once the command has exited. */
const PIPE_CLOSE_MILLIS = 2_000;

/** How a command ended. */
export interface CommandRun {
  /** The exit code, or `null` when a signal ended it (or it could not start). */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: string | null;
  /** Whether it ran past its timeout and was stopped. */
  timedOut: boolean;
  /** Why it could not start (the shell could not be spawned), if it could not. */
  spawnError?: string;
  durationMillis: number;
  stdout: StreamTail;
  stderr: StreamTail;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMillis: number;
  /** Stops the command (its whole process group) when aborted. */
  signal?: AbortSignal;
}

const groups = process.platform !== 'win32';

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // The negative PID names the process group the command leads (it was spawned detached).
    process.kill(groups ? -pid : pid, signal);
  } catch {
    // Gone already.
  }
}

/**
 * Runs `command` with the system shell and resolves once it has ended. Never rejects: a command
 * that cannot start resolves with `spawnError`. Past `timeoutMillis` the command's process group
 * gets SIGTERM, then SIGKILL five seconds later; when the command exits, what it left running in its
 * group is ended with SIGKILL.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandRun> {
  const started = performance.now();
  const stdout = new TailBuffer(MAX_STREAM_BYTES);
  const stderr = new TailBuffer(MAX_STREAM_BYTES);
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: groups,
      windowsHide: true,
    });
    let timedOut = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: string | undefined;
    const timers: NodeJS.Timeout[] = [];
    const stop = () => {
      killGroup(child.pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(child.pid, 'SIGKILL'), TERMINATE_GRACE_MILLIS));
    };
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMillis),
    );
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) stop();
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        ...(spawnError === undefined ? {} : { spawnError }),
        durationMillis: performance.now() - started,
        stdout: stdout.tail(),
        stderr: stderr.tail(),
      });
    };
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => {
      spawnError = error.message;
      finish();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // What the command left running in its group holds the pipes open: end it.
      killGroup(child.pid, 'SIGKILL');
      timers.push(setTimeout(finish, PIPE_CLOSE_MILLIS));
    });
    child.once('close', finish);
  });
}
