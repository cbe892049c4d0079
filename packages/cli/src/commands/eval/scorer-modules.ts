/**
 * `--scorer-module <file>`: modules whose exports include local-code scorers (made by
 * `defineLocalScorer` of `@svc-run/sdk/evals`). A `local_code` scorer version is scored by the
 * scorer of the same source digest and entrypoint; without one, its results are left pending.
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LocalScorer } from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';

function isLocalScorer(value: unknown): value is LocalScorer {
  const candidate = value as Partial<LocalScorer> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.score === 'function' &&
    candidate.definition?.kind === 'local_code'
  );
}

/**
 * Imports each module and collects the local scorers it exports (an export that is one, or an
 * array of them).
 *
 * @throws {@link CliError}: exit code 2 for a module that cannot be imported or exports no scorer.
 */
export async function loadScorerModules(files: readonly string[], cwd: string): Promise<LocalScorer[]> {
  const scorers: LocalScorer[] = [];
  for (const file of files) {
    const path = resolve(cwd, file);
    let exports: Record<string, unknown>;
    try {
      exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(
        `--scorer-module ${file}: cannot import it (${error instanceof Error ? error.message : String(error)}).`,
        ExitCode.Usage,
        { cause: error },
      );
    }
    const found = Object.values(exports).flatMap((value) =>
      Array.isArray(value) ? value.filter(isLocalScorer) : isLocalScorer(value) ? [value] : [],
    );
    if (found.length === 0) {
      throw new CliError(
        `--scorer-module ${file}: it exports no local scorer (make one with defineLocalScorer from @svc-run/sdk/evals).`,
        ExitCode.Usage,
      );
    }
    scorers.push(...found);
  }
  return scorers;
}
