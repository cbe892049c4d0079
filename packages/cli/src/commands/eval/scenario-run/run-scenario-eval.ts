/**
 * `svc eval --scenario "<name>" <agent file>`: a one-shot scenario run. It checks the key, loads the
 * agent file, finds the scenario, opens (or resumes) the run in its checkpoint directory, creates
 * the scenario run once (`--trials` per case), runs every trial (`run-trials.ts`), waits for
 * grading up to `--wait`, and reports each case: PASS / FAIL with the failed checks' names, pass^k
 * with several trials, the run's URL.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { SvcClient } from '@svc-run/sdk';
import { CliError } from '../../../cli-error.js';
import { checkReadWriteKey } from '../../../credentials/check-key.js';
import { readServiceCredentials } from '../../../credentials/service-credentials.js';
import { ExitCode } from '../../../exit-codes.js';
import type { CliIo } from '../../../io.js';
import { listenForShutdown } from '../../../shutdown-signal.js';
import type { EvalHooks } from '../eval-hooks.js';
import { evalTracingClient } from '../eval-tracing-client.js';
import { printReport } from '../print-report.js';
import { Progress } from '../progress.js';
import { openRun } from '../run-directory.js';
import { withRetry } from '../transient-retry.js';
import { loadAgentFile } from './agent-file.js';
import { resolveScenario } from './resolve-scenario.js';
import { runTrials } from './run-trials.js';
import { compareScenarioRuns, scenarioBaselineRun } from './scenario-baseline.js';
import { buildScenarioDocument } from './scenario-document.js';
import type { ScenarioEvalOptions } from './scenario-eval-options.js';
import { scenarioReport } from './scenario-report.js';
import { readScenarioRunState, type ScenarioRunState, saveScenarioRunState } from './scenario-run-state.js';
import { trialProgress } from './trial-progress.js';
import { waitForGrading } from './wait-for-grading.js';

/**
 * Runs (or resumes) a scenario run and reports it. Resolves to the exit code: 0 when every case
 * passed, 1 when one failed, errored or is not graded yet.
 *
 * @throws {@link CliError} for usage errors (exit code 2), a refused key or a run that cannot be
 *   made (1), an interruption (130).
 */
export async function runScenarioEval(
  options: ScenarioEvalOptions,
  io: CliIo,
  hooks: EvalHooks = {},
): Promise<ExitCode> {
  const stop = listenForShutdown(io.signal);
  try {
    const credentials = await readServiceCredentials(options.envFile, io.cwd);
    const { project, client } = await checkReadWriteKey(credentials.baseUrl, credentials.apiKey);
    const agent = await loadAgentFile(options.agentFile, io.cwd);
    const scenario = await resolveScenario(client, options.scenario);
    const baseline =
      options.baseline === undefined
        ? undefined
        : await scenarioBaselineRun(client, scenario.id, options.baseline);
    const opened = await openRun<ScenarioRunState>({
      cwd: io.cwd,
      checkpointDir: options.checkpointDir,
      label: `scenario-${scenario.slug}`,
      identity: {
        projectId: project.id,
        scenario: scenario.id,
        agentFile: agent.path,
        trials: options.trials,
        timeoutSeconds: options.timeout,
        content: options.content,
      },
      retryErrors: false,
      readState: readScenarioRunState,
    });
    let svc: SvcClient | undefined;
    const progress = new Progress(io.stderr, options.trials > 1 ? 'trials' : 'cases');
    try {
      const state: ScenarioRunState = opened.state ?? {
        format: 'svc-run.scenario-eval-run',
        version: 1,
        scenario: { id: scenario.id, slug: scenario.slug, name: scenario.name },
        run: {
          key: randomUUID(),
          body: { scenarioVersionId: scenario.latestVersionId, trials: options.trials },
        },
      };
      const save = () => saveScenarioRunState(opened.directory, state);
      if (opened.state === undefined) await save();
      if (state.run.result === undefined) {
        const created = await withRetry(() =>
          client.createScenarioRun({ idempotencyKey: state.run.key, ...state.run.body }),
        );
        state.run.result = { id: created.id };
        await save();
      }
      const runId = state.run.result.id;
      let run = await withRetry(() => client.getScenarioRun(runId));
      const version = await withRetry(() => client.getScenarioVersion(run.scenarioVersionId));
      progress.note(
        `svc eval: run ${opened.number} of scenario ${version.slug} v${version.number} (${run.cases.length} cases${run.trials > 1 ? ` × ${run.trials} trials` : ''})${opened.state === undefined ? '' : ', resumed'}: ${run.runUrl}`,
      );
      progress.start(run.totals.trials, run.totals.sealed);
      svc = evalTracingClient(credentials, 'svc-eval', options.content);
      await runTrials({
        client,
        svc,
        runMyAgent: agent.runMyAgent,
        run,
        directory: opened.directory,
        persistContent: options.content,
        timeoutMillis: options.timeout * 1000,
        concurrency: options.concurrency,
        interrupt: stop.signal,
        hooks,
        onTrialEnd: trialProgress(progress, run.trials),
      });
      if (stop.signal.aborted) {
        throw new CliError(
          `interrupted: the run stopped (the trials under way were sealed as interrupted). Rerun the same command to resume it. Run: ${run.runUrl}`,
          ExitCode.Interrupted,
        );
      }
      run = await withRetry(() => client.getScenarioRun(runId));
      if (!run.complete && options.wait > 0) {
        progress.note(`Waiting up to ${options.wait} s for grading (hosted judges)…`);
        run = await waitForGrading({ client, runId, waitSeconds: options.wait, interrupt: stop.signal });
      }
      progress.stop();
      const document = await buildScenarioDocument({
        client,
        run,
        version,
        agentFile: agent.path,
        runNumber: opened.number,
        checkpointDirectory: opened.root,
      });
      if (baseline !== undefined) document.baseline = compareScenarioRuns(run, baseline);
      const code = printReport(io, options.json, document, scenarioReport(document));
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
