/**
 * `svc eval --set …`: a direct-case run of an eval set. It checks the key, opens (or resumes) the
 * run in its checkpoint directory, creates the experiment once, runs every case with
 * `runExperiment` of `@svc-run/sdk/evals` (the command once per case: `command-target.ts`), queues
 * judge jobs and waits for them up to `--wait`, then reports each case from what the service holds.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SvcClient } from '@svc-run/sdk';
import { type JudgeJobRequest, runExperiment, UncertainExecutionError } from '@svc-run/sdk/evals';
import { CliError } from '../../cli-error.js';
import { checkReadWriteKey } from '../../credentials/check-key.js';
import { readServiceCredentials } from '../../credentials/service-credentials.js';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { listenForShutdown, whenAborted } from '../../shutdown-signal.js';
import { allPages } from './all-pages.js';
import { buildDocument } from './build-document.js';
import { CommandRecords } from './command-records.js';
import { commandTarget } from './command-target.js';
import type { EvalHooks } from './eval-hooks.js';
import type { EvalOptions } from './eval-options.js';
import { evalTracingClient } from './eval-tracing-client.js';
import { humanReport } from './human-report.js';
import { requestJudgeJobs, waitForJudgeJobs } from './judge-jobs.js';
import { junitReport } from './junit-report.js';
import { newRunState, resolveRun } from './new-run.js';
import { observedClient } from './observed-client.js';
import { printReport } from './print-report.js';
import { Progress } from './progress.js';
import { scoredHere, scorersOf } from './read-run.js';
import { openRun, type RunIdentity } from './run-directory.js';
import { readRunState, saveRunState } from './run-state.js';
import { loadScorerModules } from './scorer-modules.js';
import { withRetry } from './transient-retry.js';

/**
 * Runs (or resumes) a direct-case run and reports it. Resolves to the exit code: 0 when every case
 * passed, 1 when one failed, errored or has checks pending.
 *
 * @throws {@link CliError} for usage errors (exit code 2), a refused key or a run that cannot be
 *   made (1), an interruption (130); other errors (exit code 1) as they are.
 */
export async function runEval(options: EvalOptions, io: CliIo, hooks: EvalHooks = {}): Promise<ExitCode> {
  const stop = listenForShutdown(io.signal);
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
      label: options.set.slug,
      readState: readRunState,
      identity: {
        projectId: project.id,
        evalSet: options.set.text,
        scorers: options.scorer,
        scorerModules: options.scorerModule.map((file) => resolve(io.cwd, file)),
        command: options.command,
        revision,
        timeoutSeconds: options.timeout,
        content: options.content,
      } satisfies RunIdentity,
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
      svc = evalTracingClient(credentials, 'svc-eval', options.content);
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

      const document = await buildDocument({
        client,
        experiment,
        dataset,
        datasetVersion,
        versions,
        scorers,
        localScorers,
        deferred,
        records,
        run: { url: runUrl, number: opened.number, checkpointDirectory: opened.root },
        content: options.content,
        baseline: options.baseline,
      });
      if (options.junit !== undefined) {
        await writeFile(resolve(io.cwd, options.junit), junitReport(document, new Date().toISOString()));
      }
      const code = printReport(io, options.json, document, humanReport(document));
      state.reportedAt = new Date().toISOString();
      await save();
      return code;
    } finally {
      progress.stop();
      await svc?.shutdownSafe(5_000).catch(() => undefined);
      await opened.release();
    }
  } finally {
    stop.dispose();
  }
}
