/**
 * A new direct-case run: what `--set` and `--scorer` name in the registry, checked against the
 * options before anything is written, and the experiment to create (its idempotency key and body,
 * saved before the call). What `svc eval` records in the experiment's `config.svcEval`: the mode,
 * the eval set, the revision (`--revision`), `--content`, the timeout and the baseline.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { EvaluationClient } from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';
import type { EvalOptions } from './eval-options.js';
import { experimentOrFail } from './read-run.js';
import { resolveEvalSet, resolveScorers } from './registry-lookup.js';
import type { RunState } from './run-state.js';

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** The eval set, its version and the scorers a new run is made of. */
export type ResolvedRun = Awaited<ReturnType<typeof resolveRun>>;

/**
 * What `--set` and `--scorer` name in the registry, checked against the options.
 *
 * @throws {@link CliError} (exit code 2) for an `llm_judge` scorer without `--content`; the
 *   lookup's errors (exit code 1) for names the registry does not hold.
 */
export async function resolveRun(client: EvaluationClient, options: EvalOptions) {
  const evalSet = await resolveEvalSet(client, options.set);
  const scorers = await resolveScorers(client, options.scorer);
  const judge = scorers.find(({ version }) => version.definition.kind === 'llm_judge');
  if (judge !== undefined && !options.content) {
    throw new CliError(
      `the scorer ${judge.scorer.slug} is an llm_judge: it grades the case output the service keeps, which it keeps only with --content. Add --content.`,
      ExitCode.Usage,
    );
  }
  if (options.baseline !== undefined) await experimentOrFail(client, options.baseline, '--baseline');
  return { ...evalSet, scorers };
}

/** The state of a new run: the experiment to create. */
export function newRunState(resolved: ResolvedRun, options: EvalOptions, revision: string | null): RunState {
  const { dataset, version, scorers } = resolved;
  return {
    format: 'svc-run.eval-run',
    version: 1,
    experiment: {
      key: randomUUID(),
      body: {
        name: clip(`${dataset.slug} v${version.number}${revision === null ? '' : ` @ ${revision}`}`, 256),
        datasetVersionId: version.id,
        scorerVersionIds: scorers.map((scorer) => scorer.version.id),
        config: {
          svcEval: {
            mode: 'direct',
            evalSet: dataset.slug,
            revision,
            content: options.content,
            timeoutSeconds: options.timeout,
            ...(options.baseline === undefined ? {} : { baselineExperimentId: options.baseline }),
          },
        },
      },
    },
    judgeJobs: [],
  };
}
