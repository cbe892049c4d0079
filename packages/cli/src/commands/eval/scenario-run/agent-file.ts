/**
 * The agent file of `svc eval --scenario` and `--worker`: a module (JavaScript, or TypeScript that
 * Node runs as it is by stripping its types) exporting `runMyAgent(inputs, context)`.
 * @module
 */
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from '../../../cli-error.js';
import { ExitCode } from '../../../exit-codes.js';
import type { AgentContext } from './agent-context.js';

/** What an agent file exports: the agent, called once per trial; its return value is the output. */
export type RunMyAgent = (inputs: unknown, context: AgentContext) => unknown;

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

/**
 * Loads the agent file `file` (relative to `cwd`) and answers its `runMyAgent`.
 *
 * @throws {@link CliError} (exit code 2) when the file does not exist, is TypeScript on a Node that
 *   cannot strip types, or does not export a function `runMyAgent`; (exit code 1) when importing it
 *   throws (its error is the cause, its message shown).
 */
export async function loadAgentFile(
  file: string,
  cwd: string,
): Promise<{ path: string; runMyAgent: RunMyAgent }> {
  const path = resolve(cwd, file);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || !found.isFile()) {
    throw new CliError(`the agent file ${path} does not exist (or is not a file).`, ExitCode.Usage);
  }
  const features = process.features as { typescript?: string | false };
  if (TYPESCRIPT.has(extname(path)) && !features.typescript) {
    throw new CliError(
      `the agent file ${path} is TypeScript, and this Node (${process.version}) does not strip types: use Node 24 (or Node 22 with --experimental-strip-types in NODE_OPTIONS), or give a JavaScript file.`,
      ExitCode.Usage,
    );
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      `the agent file ${path} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      ExitCode.Failure,
      { cause: error },
    );
  }
  const runMyAgent = loaded.runMyAgent ?? (loaded.default as Record<string, unknown> | undefined)?.runMyAgent;
  if (typeof runMyAgent !== 'function') {
    throw new CliError(
      `the agent file ${path} does not export a function runMyAgent(inputs, context) (export async function runMyAgent …).`,
      ExitCode.Usage,
    );
  }
  return { path, runMyAgent: runMyAgent as RunMyAgent };
}
