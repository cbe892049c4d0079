/**
 * `svc eval --set …`: a direct-case run of an eval set. It checks the key, opens (or resumes) the
 * run in its checkpoint directory, creates the experiment once, runs every case with
 * `runExperiment` of `@svc-run/sdk/evals` (the command once per case: `command-target.ts`), queues
 * judge jobs and waits for them up to `--wait`, then reports each case from what the service holds.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createSvc, type SvcClient } from '@svc-run/sdk';
import {
  type EvaluationClient,
  type ExperimentItem,
  type JudgeJob,
  type JudgeJobRequest,
  type LocalScorer,
  runExperiment,
  type Scorer,
  type ScorerVersion,
  UncertainExecutionError,
} from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { checkReadWriteKey } from '../../credentials/check-key.js';
import { readServiceCredentials } from '../../credentials/service-credentials.js';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { listenForShutdown, whenAborted } from '../../shutdown-signal.js';
import { allPages } from './all-pages.js';
import { compareWithBaseline } from './baseline.js';
import { type CaseOutcome, caseOutcomes } from './case-states.js';
import { CommandRecords } from './command-records.js';
import { commandTarget } from './command-target.js';
import { documentCase, type EvalDocument, totalsOf } from './eval-document.js';
import type { EvalHooks } from './eval-hooks.js';
import type { EvalSetReference } from './eval-set-reference.js';
import { humanReport } from './human-report.js';
import { requestJudgeJobs, waitForJudgeJobs } from './judge-jobs.js';
import { junitReport } from './junit-report.js';
import { restoreExplanations } from './local-explanations.js';
import { observedClient } from './observed-client.js';
import { Progress } from './progress.js';
import { resolveEvalSet, resolveScorers } from './registry-lookup.js';
import { openRun } from './run-directory.js';
import { type RunState, saveRunState } from './run-state.js';
import { loadScorerModules } from './scorer-modules.js';
import { withRetry } from './transient-retry.js';

/** The parsed options of `svc eval --set`. */
export interface EvalOptions {
  set: EvalSetReference;
  scorer: string[];
  command: string;
  revision?: string;
  wait: number;
  json: boolean;
  junit?: string;
  envFile?: string;
  baseline?: string;
  content: boolean;
  timeout: number;
  checkpointDir?: string;
  retryErrors: boolean;
  concurrency: number;
  scorerModule: string[];
}

/** The tracing client's timeout: the longest allowed, so a slow service slows a run, never fails it. */
const TIMEOUT_MILLIS = 60_000;

/** Whether `version` is scored by `svc eval` itself (the others are deferred). */
function scoredHere(version: ScorerVersion, scorers: readonly LocalScorer[]): boolean {
  const { definition } = version;
  if (definition.kind === 'builtin') return true;
  if (definition.kind !== 'local_code' || definition.language !== 'typescript') return false;
  return scorers.some(
    (scorer) =>
      scorer.definition.sourceDigest === definition.sourceDigest &&
      scorer.definition.entrypoint === definition.entrypoint,
  );
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

function configOf(value: Record<string, unknown>): { revision: string | null } {
  const svcEval = value.svcEval as { revision?: unknown } | undefined;
  return { revision: typeof svcEval?.revision === 'string' ? svcEval.revision : null };
}

/**
 * What `--set` and `--scorer` name in the registry, checked against the options.
 *
 * @throws {@link CliError} (exit code 2) for an `llm_judge` scorer without `--content`; the
 *   lookup's errors (exit code 1) for names the registry does not hold.
 */
async function resolveRun(client: EvaluationClient, options: EvalOptions) {
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
function newRunState(
  resolved: Awaited<ReturnType<typeof resolveRun>>,
  options: EvalOptions,
  revision: string | null,
): RunState {
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

/** What the service holds about an experiment's cases, and their outcomes. */
async function readOutcomes(
  client: EvaluationClient,
  experimentId: string,
  runId: string,
  scorerVersions: readonly ScorerVersion[],
  localErrors?: ReadonlyMap<string, { type: string; message: string }>,
): Promise<{ items: ExperimentItem[]; outcomes: CaseOutcome[]; jobs: JudgeJob[] }> {
  const [items, results, jobs] = await Promise.all([
    withRetry(() => allPages((page) => client.listExperimentItems(experimentId, page))),
    withRetry(() => allPages((page) => client.listResults(runId, page))),
    withRetry(() => allPages((page) => client.listJudgeJobs(runId, page))),
  ]);
  return {
    items,
    jobs,
    outcomes: caseOutcomes({
      items,
      results,
      scorerVersions,
      judgeJobs: jobs,
      ...(localErrors === undefined ? {} : { localErrors }),
    }),
  };
}

/** The scorers of `versions`, by scorer ID. */
async function scorersOf(
  client: EvaluationClient,
  versions: readonly ScorerVersion[],
): Promise<Map<string, Scorer>> {
  const ids = [...new Set(versions.map((version) => version.scorerId))];
  const scorers = await Promise.all(ids.map((id) => withRetry(() => client.getScorer(id))));
  return new Map(scorers.map((scorer) => [scorer.id, scorer]));
}

async function experimentOrFail(client: EvaluationClient, id: string, what: string) {
  try {
    return await withRetry(() => client.getExperiment(id));
  } catch (error) {
    if ((error as { status?: number }).status === 404) {
      throw new CliError(`${what}: the project has no experiment ${id}.`, ExitCode.Failure);
    }
    throw error;
  }
}

/** The comparison with the baseline experiment. */
async function baselineOf(
  client: EvaluationClient,
  baselineId: string,
  current: { outcomes: CaseOutcome[]; versions: Map<string, ScorerVersion>; scorers: Map<string, Scorer> },
) {
  const experiment = await experimentOrFail(client, baselineId, '--baseline');
  const versions = await Promise.all(
    experiment.scorerVersionIds.map((id) => withRetry(() => client.getScorerVersion(id))),
  );
  const scorers = await scorersOf(client, versions);
  const { outcomes } = await readOutcomes(client, experiment.id, experiment.evaluationRunId, versions);
  const byVersion = new Map(versions.map((version) => [version.id, version]));
  const scorerOf =
    (versionsById: Map<string, ScorerVersion>, scorersById: Map<string, Scorer>) => (id: string) => {
      const scorerId = versionsById.get(id)?.scorerId ?? id;
      return { id: scorerId, slug: scorersById.get(scorerId)?.slug ?? scorerId };
    };
  return compareWithBaseline(
    { outcomes: current.outcomes, scorerOf: scorerOf(current.versions, current.scorers) },
    { outcomes, scorerOf: scorerOf(byVersion, scorers) },
    {
      experimentId: experiment.id,
      runUrl: new URL(`/experiments/${experiment.id}`, client.baseUrl).href,
      revision: configOf(experiment.config).revision,
    },
  );
}

/**
 * Runs (or resumes) a direct-case run and reports it. Resolves to the exit code: 0 when every case
 * passed, 1 when one failed, errored or has checks pending.
 *
 * @throws {@link CliError} for usage errors (exit code 2), a refused key or a run that cannot be
 *   made (1), an interruption (130); other errors (exit code 1) as they are.
 */
export async function runEval(options: EvalOptions, io: CliIo, hooks: EvalHooks = {}): Promise<ExitCode> {
  const stop =
    io.signal === undefined ? listenForShutdown() : { signal: io.signal, dispose: () => undefined };
  try {
    const credentials = await readServiceCredentials(options.envFile, io.cwd);
    const localScorers = await loadScorerModules(options.scorerModule, io.cwd);
    const { project, client } = await checkReadWriteKey(credentials.baseUrl, credentials.apiKey);
    const revision = options.revision ?? null;
    // Resolved (and checked) before anything is written; a resumed run keeps what it resolved.
    const resolved = await resolveRun(client, options);
    const opened = await openRun({
      cwd: io.cwd,
      checkpointDir: options.checkpointDir,
      evalSetSlug: options.set.slug,
      identity: {
        projectId: project.id,
        evalSet: options.set.text,
        scorers: options.scorer,
        scorerModules: options.scorerModule.map((file) => resolve(io.cwd, file)),
        command: options.command,
        revision,
        timeoutSeconds: options.timeout,
        content: options.content,
      },
      retryErrors: options.retryErrors,
    });
    let svc: SvcClient | undefined;
    const progress = new Progress(io.stderr);
    try {
      const state = opened.state ?? newRunState(resolved, options, revision);
      const save = () => saveRunState(opened.directory, state);
      if (opened.state === undefined || state.reportedAt !== undefined) {
        delete state.reportedAt; // a retry of a reported run: report it again once done
        await save();
      }
      if (state.experiment.result === undefined) {
        const { key, body } = state.experiment;
        state.experiment.result = await withRetry(() =>
          client.createExperiment({ idempotencyKey: key, ...body }),
        );
        await save();
      }
      const experiment = await withRetry(() => client.getExperiment(state.experiment.result!.id));
      const versions = await Promise.all(
        experiment.scorerVersionIds.map((id) => withRetry(() => client.getScorerVersion(id))),
      );
      const judged = versions.filter((version) => version.definition.kind === 'llm_judge');
      const scorers = await scorersOf(client, versions);
      const [dataset, datasetVersion] = await Promise.all([
        withRetry(() => client.getDataset(experiment.datasetId)),
        withRetry(() => client.getDatasetVersion(experiment.datasetVersionId)),
      ]);
      const deferred = versions
        .filter((version) => !scoredHere(version, localScorers))
        .map((version) => version.id);
      const localCount = versions.length - deferred.length;
      const runUrl = new URL(`/experiments/${experiment.id}`, client.baseUrl).href;
      const records = new CommandRecords(opened.directory);
      const interrupt = stop.signal;
      const interrupted = whenAborted(interrupt).then(() => {
        throw new CliError(
          `interrupted: the run stopped. Rerun the same command to resume it (a case whose command was running is reported as errored; --retry-errors runs it again). Run: ${runUrl}`,
          ExitCode.Interrupted,
        );
      });
      interrupted.catch(() => undefined);

      progress.note(
        `svc eval: run ${opened.number} of ${dataset.slug} v${datasetVersion.number} (${experiment.caseCount} cases)${opened.state === undefined ? '' : ', resumed'}: ${runUrl}`,
      );
      const before = await withRetry(() =>
        allPages((page) => client.listExperimentItems(experiment.id, page)),
      );
      progress.start(
        experiment.caseCount,
        before.filter((item) => item.latestExecution !== null && item.latestExecution.state !== 'started')
          .length,
      );
      const ended = new Set<string>();
      const end = (key: string, kind: Parameters<Progress['caseEnded']>[1], detail?: string) => {
        if (ended.has(key)) return;
        ended.add(key);
        progress.caseEnded(key, kind, detail);
      };
      const errorTypes = new Map<string, string>();
      svc = createSvc({
        apiKey: credentials.apiKey,
        baseUrl: credentials.baseUrl,
        serviceName: 'svc-eval',
        captureContent: options.content,
        timeoutMillis: TIMEOUT_MILLIS,
      });
      const runner = runExperiment({
        client: observedClient(client, hooks, {
          completed: (key, executionState) => {
            if (executionState !== 'succeeded') end(key, 'errored', errorTypes.get(key));
            else if (localCount === 0) end(key, 'done', 'checks pending');
          },
          scored: (key, results) => {
            const failed = results.flatMap((result) =>
              result.status === 'scored' ? result.metrics.filter((metric) => metric.passed === false) : [],
            );
            if (results.some((result) => result.status === 'error')) end(key, 'errored', 'scorer error');
            else if (failed.length > 0) end(key, 'failed', failed.map((metric) => metric.name).join(', '));
            else end(key, 'passed');
          },
        }),
        svc,
        experimentId: experiment.id,
        checkpointDirectory: join(opened.directory, 'runner'),
        persistResultContent: options.content,
        traceEvidence: { mode: 'required' },
        scorers: localScorers,
        concurrency: options.concurrency,
        retryErrors: options.retryErrors,
        finishWithErrors: false,
        // A case stopped before its command was spawned runs again; any other stays uncertain.
        mayHaveRun: ({ traceId }) => records.mayHaveStarted(traceId),
        target: commandTarget({
          command: options.command,
          timeoutMillis: options.timeout * 1000,
          client,
          svc,
          runDirectory: opened.directory,
          records,
          baseEnv: process.env,
          interrupt,
          hooks,
          onCommandEnd: (record) => {
            const type =
              record.spawnError !== undefined
                ? 'CommandNotStarted'
                : record.timedOut
                  ? 'CommandTimedOut'
                  : record.exitCode !== 0
                    ? 'CommandFailed'
                    : undefined;
            if (type !== undefined) errorTypes.set(record.caseKey, type);
          },
        }),
      });
      try {
        await Promise.race([runner, interrupted]);
      } catch (error) {
        // A case that may have completed is reported as errored, with its reason, like the others.
        if (!UncertainExecutionError.isInstance(error)) throw error;
      }

      const afterRun = await withRetry(() =>
        allPages((page) => client.listExperimentItems(experiment.id, page)),
      );
      const wanted: JudgeJobRequest[] = afterRun.flatMap((item) => {
        const execution = item.latestExecution;
        if (execution?.state !== 'succeeded' || execution.evaluationItemId === null) return [];
        return judged.map((version) => ({
          evaluationItemId: execution.evaluationItemId!,
          scorerVersionId: version.id,
        }));
      });
      await requestJudgeJobs({ client, runId: experiment.evaluationRunId, state, save, wanted });
      const jobIds = new Set(state.judgeJobs.flatMap((call) => call.result?.ids ?? []));
      if (jobIds.size > 0) {
        progress.note(
          `Waiting up to ${options.wait} s for ${jobIds.size} hosted judge job${jobIds.size === 1 ? '' : 's'}…`,
        );
        await Promise.race([
          waitForJudgeJobs({
            client,
            runId: experiment.evaluationRunId,
            jobIds,
            waitSeconds: options.wait,
            interrupt,
          }),
          interrupted,
        ]);
      }
      progress.stop();

      const commands = await records.all();
      const localErrors = new Map(
        [...commands].flatMap(([traceId, record]) =>
          record.error === undefined ? [] : [[traceId, record.error] as const],
        ),
      );
      const { items: finalItems, outcomes } = await readOutcomes(
        client,
        experiment.id,
        experiment.evaluationRunId,
        versions,
        localErrors,
      );
      const byVersion = new Map(versions.map((version) => [version.id, version]));
      if (!options.content) {
        await restoreExplanations(outcomes, {
          items: finalItems,
          versions: byVersion,
          scoredHere: (version) => scoredHere(version, localScorers),
          scorers: localScorers,
          commands,
        });
      }
      const slugOf = (id: string) => scorers.get(byVersion.get(id)?.scorerId ?? '')?.slug ?? id;
      const cases = outcomes.map((outcome) => {
        const command = outcome.traceId === null ? undefined : commands.get(outcome.traceId);
        return documentCase(outcome, {
          origin: client.baseUrl,
          slugOf,
          command,
          outputFiles: command?.outputFiles ?? [],
        });
      });
      const document: EvalDocument = {
        mode: 'direct',
        runUrl,
        experimentId: experiment.id,
        runId: experiment.evaluationRunId,
        runNumber: opened.number,
        checkpointDirectory: opened.root,
        evalSet: {
          slug: dataset.slug,
          datasetId: dataset.id,
          versionId: datasetVersion.id,
          version: datasetVersion.number,
        },
        revision: configOf(experiment.config).revision,
        scorers: versions.map((version) => ({
          slug: slugOf(version.id),
          scorerId: version.scorerId,
          scorerVersionId: version.id,
          version: version.number,
          kind: version.definition.kind,
        })),
        cases,
        totals: totalsOf(cases),
        deferredScorerVersionIds: deferred,
        complete: !cases.some((item) => item.state === 'PENDING'),
      };
      if (options.baseline !== undefined) {
        document.baseline = await baselineOf(client, options.baseline, {
          outcomes,
          versions: byVersion,
          scorers,
        });
      }
      if (options.junit !== undefined) {
        await writeFile(resolve(io.cwd, options.junit), junitReport(document, new Date().toISOString()));
      }
      if (options.json) {
        io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        io.stderr.write(humanReport(document));
      } else {
        io.stdout.write(humanReport(document));
      }
      state.reportedAt = new Date().toISOString();
      await save();
      return document.totals.passed === document.totals.cases ? ExitCode.Ok : ExitCode.Failure;
    } finally {
      progress.stop();
      await svc?.shutdownSafe(5_000).catch(() => undefined);
      await opened.release();
    }
  } finally {
    stop.dispose();
  }
}
