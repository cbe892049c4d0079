/**
 * Where `svc eval` keeps a run: a checkpoint directory per command (by default
 * `.svc/runs/<eval set>-<hash of the command>`, ignored by git), holding one numbered directory per
 * run. Rerunning the same command resumes the latest run until its report was given; then it starts
 * the next run. `--retry-errors` works in the latest run.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';
import { readJson, writeJsonDurably } from './durable-json.js';
import { lockRunDirectory } from './run-lock.js';
import type { RunState } from './run-state.js';

/** The default parent of checkpoint directories, relative to the working directory. */
export const DEFAULT_RUNS_DIRECTORY = '.svc/runs';

/** What makes two invocations the same command: what they run and how it is scored. */
export interface RunIdentity {
  projectId: string;
  /** `--set` as given (`slug` or `slug@number`). */
  evalSet: string;
  scorers: string[];
  scorerModules: string[];
  command: string;
  revision: string | null;
  timeoutSeconds: number;
  content: boolean;
}

/** A run directory, locked. */
export interface OpenedRun<TState = RunState> {
  /** The checkpoint directory of the command. */
  root: string;
  /** This run's directory (`<root>/<number>`). */
  directory: string;
  number: number;
  /** The run's saved state, when it was started before (a resumed run). */
  state: TState | undefined;
  /** Releases the lock. */
  release(): Promise<void>;
}

/** A short, stable digest of `identity`. */
export function identityDigest(identity: object): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12);
}

/** Makes `runsDirectory` (mode 0700) with a `.gitignore` that ignores everything in it. */
export async function ensureIgnored(runsDirectory: string): Promise<void> {
  await mkdir(runsDirectory, { recursive: true, mode: 0o700 });
  // `*` ignores everything below, this file included.
  await writeFile(join(runsDirectory, '.gitignore'), '# svc eval checkpoints\n*\n', { flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
}

async function latestRunNumber(root: string): Promise<number | undefined> {
  const numbers = (await readdir(root)).filter((name) => /^[1-9]\d{0,8}$/.test(name)).map(Number);
  return numbers.length === 0 ? undefined : Math.max(...numbers);
}

/**
 * Opens the run of `identity`: the latest run of its checkpoint directory when that run has not
 * given its report (a resume) or `retryErrors` is set, else a new one.
 *
 * @throws {@link CliError}: exit code 2 for a checkpoint directory of another command, or
 *   `retryErrors` without an earlier run; 1 when another `svc eval` uses the directory.
 */
export async function openRun<TState extends { reportedAt?: string } = RunState>(options: {
  cwd: string;
  checkpointDir: string | undefined;
  /** The first part of the default checkpoint directory's name: the eval set's or scenario's slug. */
  label: string;
  /** What makes two invocations the same command ({@link RunIdentity} for `--set`). */
  identity: object;
  retryErrors: boolean;
  /** Reads a run's saved state from its directory. */
  readState: (runDirectory: string) => Promise<TState | undefined>;
}): Promise<OpenedRun<TState>> {
  const digest = identityDigest(options.identity);
  let root: string;
  if (options.checkpointDir === undefined) {
    const runs = resolve(options.cwd, DEFAULT_RUNS_DIRECTORY);
    await ensureIgnored(runs);
    root = join(runs, `${options.label}-${digest}`);
  } else {
    root = resolve(options.cwd, options.checkpointDir);
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  const release = await lockRunDirectory(root);
  try {
    const commandFile = join(root, 'command.json');
    const saved = await readJson<{ digest?: string }>(commandFile);
    if (saved === undefined) {
      await writeJsonDurably(commandFile, { digest, ...options.identity });
    } else if (saved.digest !== digest) {
      throw new CliError(
        `the checkpoint directory ${root} holds runs of another command (another eval set or scenario, scorer, command or agent file, revision, trials, timeout, --content or project): use another --checkpoint-dir.`,
        ExitCode.Usage,
      );
    }
    const latest = await latestRunNumber(root);
    let number: number;
    let state: TState | undefined;
    if (latest === undefined) {
      if (options.retryErrors) {
        throw new CliError(
          `--retry-errors: ${root} holds no earlier run of this command to retry; run it without --retry-errors first.`,
          ExitCode.Usage,
        );
      }
      number = 1;
    } else {
      state = await options.readState(join(root, String(latest)));
      if (state?.reportedAt !== undefined && !options.retryErrors) {
        number = latest + 1;
        state = undefined;
      } else {
        number = latest;
      }
    }
    const directory = join(root, String(number));
    await mkdir(directory, { recursive: true, mode: 0o700 });
    return { root, directory, number, state, release };
  } catch (error) {
    await release();
    throw error;
  }
}
