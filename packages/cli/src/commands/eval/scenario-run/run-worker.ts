/**
 * `svc eval --worker <agent file>`: a long-running worker. It registers itself as a local agent
 * (name, agent file, host, start), polls the service (its heartbeat; a poll also leases it the next
 * launched run), serves each leased run like `--scenario` does (every trial in its own world, the
 * agent called once, sealed, graded), completes it, and goes on until Ctrl-C or SIGTERM. Then it
 * seals the trials under way as interrupted, completes the runs it finished and gives the others
 * back (another worker, or this one restarted, resumes them), and stops the local agent.
 *
 * A worker always keeps case outputs and explanations on the service (the messages of the errors
 * an agent throws too); `--content` also captures content in the agent's traces. Each run's trial
 * records are kept in `<checkpoint dir>/<run ID>` (default `.svc/worker`), so a worker killed in
 * the middle of a trial, restarted, never calls the agent again for a trial that may have run.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SvcClient } from '@svc-run/sdk';
import { type EvaluationClient, type Launch, SvcApiError } from '@svc-run/sdk/evals';
import { CliError } from '../../../cli-error.js';
import { checkReadWriteKey } from '../../../credentials/check-key.js';
import { readServiceCredentials } from '../../../credentials/service-credentials.js';
import { ExitCode } from '../../../exit-codes.js';
import type { CliIo } from '../../../io.js';
import { listenForShutdown, whenAborted } from '../../../shutdown-signal.js';
import type { EvalHooks } from '../eval-hooks.js';
import { evalTracingClient } from '../eval-tracing-client.js';
import { oneLine } from '../human-report.js';
import { ensureIgnored } from '../run-directory.js';
import { lockRunDirectory } from '../run-lock.js';
import { withRetry } from '../transient-retry.js';
import { loadAgentFile, type RunMyAgent } from './agent-file.js';
import { runTrials } from './run-trials.js';
import type { WorkerOptions } from './scenario-eval-options.js';

/** The default parent of the worker's run directories, relative to the working directory. */
export const DEFAULT_WORKER_DIRECTORY = '.svc/worker';

function messageOf(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function defaultName(): string {
  let user = 'svc';
  try {
    user = userInfo().username || user;
  } catch {
    // No user name on this system (a container without passwd entry): the host alone names it.
  }
  return `${user}@${hostname()}`;
}

/**
 * Runs the worker until it is stopped. Resolves to 0 after a clean stop (Ctrl-C, SIGTERM).
 *
 * @throws {@link CliError}: exit code 2 for a bad agent file; 1 for a refused key, or when the
 *   service stops the local agent (its polls are refused).
 */
export async function runWorker(options: WorkerOptions, io: CliIo, hooks: EvalHooks = {}): Promise<ExitCode> {
  const stop = listenForShutdown(io.signal);
  try {
    const credentials = await readServiceCredentials(options.envFile, io.cwd);
    const { client } = await checkReadWriteKey(credentials.baseUrl, credentials.apiKey);
    const agent = await loadAgentFile(options.agentFile, io.cwd);
    const root = resolve(io.cwd, options.checkpointDir ?? DEFAULT_WORKER_DIRECTORY);
    if (options.checkpointDir === undefined) await ensureIgnored(root);
    else await mkdir(root, { recursive: true, mode: 0o700 });
    const registered = await withRetry(() =>
      client.registerLocalAgent({
        idempotencyKey: randomUUID(),
        name: defaultName(),
        agentFile: agent.path,
        host: hostname(),
        startedAt: new Date().toISOString(),
      }),
    );
    const agentId = registered.agent.id;
    const say = (text: string) => io.stderr.write(`${text}\n`);
    say(
      `svc eval --worker: local agent "${oneLine(registered.agent.name)}" (${agentId}) serves ${agent.path}. Launch runs from the viewer (Run on a scenario) or with the MCP tool launch_local_run; Ctrl-C stops.`,
    );
    const svc = evalTracingClient(credentials, 'svc-eval-worker', options.content);
    const serving = new Map<string, Promise<void>>();
    // Launches this worker served to their end: a poll answered before their completion may still
    // list them, and they are not served again.
    const served = new Set<string>();
    // The runs under way stop on Ctrl-C, and when the service stops this local agent (what it held
    // went back to the queue: it serves none of it any more).
    const revoked = new AbortController();
    const interrupt = AbortSignal.any([stop.signal, revoked.signal]);
    const serve = (launch: Launch) =>
      serveLaunch({
        client,
        svc,
        runMyAgent: agent.runMyAgent,
        agentId,
        launch,
        root,
        options,
        hooks,
        stop: interrupt,
        say,
      });
    let failure: unknown;
    try {
      while (!stop.signal.aborted) {
        let leases: Launch[] = [];
        try {
          leases = (await withRetry(() => client.pollLocalAgent(agentId))).leases;
        } catch (error) {
          if (SvcApiError.isInstance(error) && (error.status === 409 || error.status === 404)) {
            throw new CliError(
              `the service stopped this local agent (${agentId}); start the worker again to serve runs.`,
              ExitCode.Failure,
              { cause: error },
            );
          }
          say(`svc eval --worker: a poll failed (${messageOf(error)}); polling again.`);
        }
        for (const launch of leases) {
          if (serving.has(launch.id) || served.has(launch.id)) continue;
          serving.set(
            launch.id,
            serve(launch)
              .then((ended) => {
                if (ended === 'completed') served.add(launch.id);
              })
              .finally(() => serving.delete(launch.id)),
          );
        }
        await Promise.race([sleep(registered.pollIntervalMillis), whenAborted(stop.signal)]);
      }
    } catch (error) {
      failure = error;
      revoked.abort();
    }
    // Stopping: the runs under way seal their trials under way and complete or give themselves back.
    await Promise.allSettled(serving.values());
    await svc.shutdownSafe(5_000).catch(() => undefined);
    try {
      await withRetry(() => client.stopLocalAgent(agentId, randomUUID()));
    } catch (error) {
      if (failure === undefined) throw error;
    }
    if (failure === undefined) say('svc eval --worker: stopped.');
    if (failure !== undefined) throw failure;
    return ExitCode.Ok;
  } finally {
    stop.dispose();
  }
}

/** Serves one leased launch: runs its trials, then completes it (or gives it back when stopped first). */
async function serveLaunch(context: {
  client: EvaluationClient;
  svc: SvcClient;
  runMyAgent: RunMyAgent;
  agentId: string;
  launch: Launch;
  root: string;
  options: WorkerOptions;
  hooks: EvalHooks;
  stop: AbortSignal;
  say: (text: string) => void;
}): Promise<'completed' | 'released'> {
  const { client, launch, agentId, say } = context;
  const directory = join(context.root, launch.runId);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockRunDirectory(directory);
    const run = await withRetry(() => client.getScenarioRun(launch.runId));
    say(
      `Run ${run.runUrl}: ${run.cases.length} case${run.cases.length === 1 ? '' : 's'}${run.trials > 1 ? ` × ${run.trials} trials` : ''}${launch.leases > 1 ? ' (resumed)' : ''}`,
    );
    await runTrials({
      client,
      svc: context.svc,
      runMyAgent: context.runMyAgent,
      run,
      directory,
      persistContent: true,
      timeoutMillis: context.options.timeout * 1000,
      concurrency: context.options.concurrency,
      interrupt: context.stop,
      hooks: context.hooks,
      onTrialEnd: (ended, resumed) => {
        if (resumed) return;
        const detail =
          ended.outcome === 'failed'
            ? ` (${ended.failedChecks.join(', ')})`
            : ended.error === undefined
              ? ''
              : ` (${ended.error.type})`;
        say(
          `  ${oneLine(ended.caseKey)}#${ended.trial}: ${(ended.outcome ?? 'sealed').toUpperCase()}${oneLine(detail)}`,
        );
      },
    });
    const after = await withRetry(() => client.getScenarioRun(launch.runId));
    if (after.totals.sealed < after.totals.trials) {
      await withRetry(() => client.releaseLaunch(launch.id, { idempotencyKey: randomUUID(), agentId }));
      say(`Run ${after.runUrl}: given back with ${after.totals.trials - after.totals.sealed} trials to run.`);
      return 'released';
    }
    await withRetry(() => client.completeLaunch(launch.id, { idempotencyKey: randomUUID(), agentId }));
    const { totals } = after;
    say(
      `Run ${after.runUrl}: done: ${totals.passed} passed, ${totals.failed} failed, ${totals.errored} errored, ${totals.pending} pending of ${totals.trials} trials${after.passHatK === null ? '' : `; pass^${after.trials} ${Math.round(after.passHatK * 1000) / 1000}`}`,
    );
    return 'completed';
  } catch (error) {
    // Stopped by the service, its launch went back to the queue already: nothing to say of it.
    if (!context.stop.aborted) {
      say(`Run ${launch.runUrl}: could not be served (${messageOf(error)}); giving it back.`);
    }
    await withRetry(() => client.releaseLaunch(launch.id, { idempotencyKey: randomUUID(), agentId })).catch(
      () => undefined, // the lease lapses by itself when the worker stops polling it
    );
    return 'released';
  } finally {
    await release?.();
  }
}
