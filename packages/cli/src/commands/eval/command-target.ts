/**
 * The target `svc eval` gives `runExperiment`: for one case, it makes the case's private directory,
 * runs the agent command in it once, keeps the command's report, reads what the command wrote and
 * records the output files on the case's span (uploaded with `--content`), and returns the
 * execution output. A command that fails, runs past its timeout or writes nothing is an error of
 * the case (the execution completes in state `error`), never a failure of the run.
 * @module
 */
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SvcClient } from '@svc-run/sdk';
import type { EvaluationClient, TargetContext, TargetItem } from '@svc-run/sdk/evals';
import { agentEnvironment } from './agent-environment.js';
import { type CaseOutput, readCaseOutputs } from './case-outputs.js';
import { createCaseWorkspace } from './case-workspace.js';
import type { CommandRecord, CommandRecords } from './command-records.js';
import type { EvalHooks } from './eval-hooks.js';
import { type CommandRun, runCommand } from './run-command.js';

/** Largest inputs JSON an agent gets in `SVC_CASE_INPUTS` (environment strings are bounded). */
export const MAX_INPUTS_BYTES = 128 * 1024;

/** How much of stderr a case error's message quotes (kept by the service only with `--content`). */
const QUOTED_STDERR_CHARS = 1_000;

/** Span name of the command inside a case's span. */
export const COMMAND_SPAN_NAME = 'eval.command';

/** A case's error: its `name` is the error type the execution is completed with. */
export class CaseError extends Error {
  override readonly name: string;

  constructor(type: string, message: string) {
    super(message);
    this.name = type;
  }
}

/** Options of {@link commandTarget}. */
export interface CommandTargetOptions {
  command: string;
  timeoutMillis: number;
  /** Downloads the case files. */
  client: EvaluationClient;
  svc: SvcClient;
  /** The run's directory: output files are copied to `outputs/<trace ID>/`. */
  runDirectory: string;
  records: CommandRecords;
  /** The environment the agent's is made from. */
  baseEnv: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C: the command is stopped and the target never settles. */
  interrupt: AbortSignal;
  hooks: EvalHooks;
  /** Called once a case's command ended. */
  onCommandEnd?(record: CommandRecord): void;
}

/** A promise that never settles: what a target does once the run is interrupted. */
function never(): Promise<never> {
  return new Promise<never>(() => undefined);
}

function traceParent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

/** The case error of a command that did not end with exit code 0, or `undefined`. */
function commandError(run: CommandRun, timeoutMillis: number): CaseError | undefined {
  const stderr = run.stderr.text.trim();
  const quoted = stderr === '' ? '' : ` Its stderr ends with: ${stderr.slice(-QUOTED_STDERR_CHARS)}`;
  if (run.spawnError !== undefined) {
    return new CaseError('CommandNotStarted', `The command could not be started: ${run.spawnError}`);
  }
  if (run.timedOut) {
    return new CaseError(
      'CommandTimedOut',
      `The command ran past the per-case timeout of ${timeoutMillis / 1000} s and was stopped.${quoted}`,
    );
  }
  if (run.exitCode !== 0) {
    const how =
      run.exitCode === null ? `was ended by ${run.signal ?? 'a signal'}` : `exited with code ${run.exitCode}`;
    return new CaseError('CommandFailed', `The command ${how}.${quoted}`);
  }
  return undefined;
}

/** The `runExperiment` target that runs `options.command` once per case. */
export function commandTarget(options: CommandTargetOptions) {
  const { client, svc, hooks, interrupt } = options;
  return async (inputs: unknown, context: TargetContext): Promise<CaseOutput> => {
    const item: TargetItem = context.item;
    if (interrupt.aborted) return never();
    await hooks.step?.('before-command', item.externalKey);
    const inputsJson = JSON.stringify(inputs ?? null);
    if (Buffer.byteLength(inputsJson) > MAX_INPUTS_BYTES) {
      throw new CaseError(
        'InputsTooLarge',
        `The case's inputs are over the ${MAX_INPUTS_BYTES} bytes of JSON SVC_CASE_INPUTS can hold.`,
      );
    }
    let workspace: Awaited<ReturnType<typeof createCaseWorkspace>>;
    try {
      workspace = await createCaseWorkspace(item.files, (file) =>
        client.downloadCaseFile(item.caseId, file.sha256),
      );
    } catch (error) {
      throw new CaseError(
        'CaseFilesUnavailable',
        `The case's files could not be placed in its directory: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    try {
      // Before the spawn, durably: from here on the command may have run (see `mayHaveRun`).
      await options.records.markStarting(context.span.traceId, item.externalKey);
      const run = await svc.withSpan(
        COMMAND_SPAN_NAME,
        async (span) => {
          const result = await runCommand(options.command, {
            cwd: workspace.directory,
            env: agentEnvironment(options.baseEnv, {
              SVC_CASE_INPUTS: inputsJson,
              SVC_CASE_OUTPUT_DIR: workspace.outputDirectory,
              SVC_CASE_DIR: workspace.directory,
              SVC_CASE_KEY: item.externalKey,
              TRACEPARENT: traceParent(span.traceId, span.spanId),
            }),
            timeoutMillis: options.timeoutMillis,
            signal: interrupt,
          });
          if (result.exitCode !== null) span.span.setAttribute('process.exit.code', result.exitCode);
          if (result.timedOut) span.span.setAttribute('svc.eval.command.timed_out', true);
          // Content: kept on the span only when content capture is on (`--content`).
          span.setOutput({ stdout: result.stdout.text, stderr: result.stderr.text });
          return result;
        },
        { parentContext: context.span.context, attributes: { 'svc.eval.case_key': item.externalKey } },
      );
      const record: CommandRecord = {
        caseId: item.caseId,
        caseKey: item.externalKey,
        traceId: context.span.traceId,
        exitCode: run.exitCode,
        signal: run.signal,
        timedOut: run.timedOut,
        ...(run.spawnError === undefined ? {} : { spawnError: run.spawnError }),
        durationMillis: Math.round(run.durationMillis),
        stdout: run.stdout,
        stderr: run.stderr,
      };
      await options.records.save(record);
      options.onCommandEnd?.(record);
      await hooks.step?.('after-command', item.externalKey);
      if (interrupt.aborted) return never();
      const fail = async (error: CaseError): Promise<never> => {
        // Kept beside the command's report, for the run's report (the service keeps the message
        // only with --content).
        await options.records.save({ ...record, error: { type: error.name, message: error.message } });
        throw error;
      };
      // Awaited here: a rejected promise returned from inside `try` would go unobserved while
      // `finally` removes the directory, and Node ends the process on an unhandled rejection.
      const failed = commandError(run, options.timeoutMillis);
      if (failed !== undefined) return await fail(failed);
      const read = await readCaseOutputs(workspace.outputDirectory);
      if ('problem' in read) {
        const { type, message } = read.problem;
        return await fail(new CaseError(type, `${message.charAt(0).toUpperCase()}${message.slice(1)}`));
      }
      // Copies outside the agent's directory: they stay until uploaded (and for you to look at).
      const kept = join(options.runDirectory, 'outputs', context.span.traceId);
      await mkdir(kept, { recursive: true, mode: 0o700 });
      await cp(workspace.outputDirectory, kept, { recursive: true });
      await options.records.save({ ...record, output: read.output, outputFiles: read.output.files });
      for (const file of read.files) {
        context.span.recordFile({
          role: 'output',
          path: join(kept, file.name),
          mediaType: file.contentType,
          name: file.name.length <= 256 ? file.name : file.name.slice(-256),
          upload: true,
        });
      }
      return read.output;
    } finally {
      await workspace.remove();
    }
  };
}
