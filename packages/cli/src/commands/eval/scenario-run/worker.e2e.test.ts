/**
 * `svc eval --worker <agent file>` end to end: the built `svc` executable runs as a worker in a
 * child process against the reference server of the test process, and runs are launched on it with
 * real clients (the official MCP client calling `launch_local_run`, the SDK's `launchLocalRun`).
 * Expectations from issue 17 and the spec: a launched run is served by a live worker, its case
 * outputs and explanations are kept; a launch with no live worker is refused with the reason and
 * makes nothing; a worker killed mid-case leaves a run that another worker finishes without calling
 * the agent twice for any trial (the trial whose agent may have run is sealed errored); Ctrl-C
 * seals the trial under way as interrupted, gives the launch back, stops the local agent and
 * exits 0; bad usage exits 2 and registers nothing.
 *
 * Deterministic: the service's scenario clock is injected (a killed worker's lease lapses when the
 * test moves the clock past the liveness window, never by waiting), a worker's progress is awaited
 * by polling the service or its output with no time limit of its own, and "mid-case" is the test
 * agent's `block` behavior (it writes a marker and never returns) or a step hook that pauses the
 * worker (`testing/agents/pause-at-step.mjs`).
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ScenarioRun, SvcApiError } from '@svc-run/sdk/evals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEvalService, writeEvalEnvFile } from '../../../testing/eval-service.js';
import {
  NOTES_CASES,
  type NotesCase,
  publishNotesScenario,
  SCENARIO_AGENT,
} from '../../../testing/notes-scenario.js';
import { type BuiltCliProcess, runBuiltCli, spawnBuiltCli } from '../../../testing/spawn-built-cli.js';
import { waitForFile } from '../../../testing/wait-for-file.js';
import { waitWhileRunning } from '../../../testing/wait-while-running.js';

const PAUSE_AT = fileURLToPath(new URL('../../../testing/agents/pause-at-step.mjs', import.meta.url));

/** The liveness window (and lease) of local agents on the test server, on its injected clock. */
const LIVE_MILLIS = 30_000;

/** The service's scenario clock: frozen, so a worker stays live until a test moves it on. */
let clock = Date.parse('2026-01-01T00:00:00Z');

const service = useEvalService({
  // A short poll interval (real time) keeps the tests quick; liveness is on the injected clock.
  scenarios: { now: () => clock, liveMillis: LIVE_MILLIS, pollIntervalMillis: 50 },
});

// Timeouts are for hangs, not for a slow machine: each test runs the executable a few times.
const LONG = { timeout: 300_000 };

/** A worker child process and the ID of the local agent it registered. */
interface Worker {
  cli: BuiltCliProcess;
  agentId: string;
}

/** A test's working directory, env file, markers directory and the agent's call log. */
async function workspace(prefix: string) {
  const cwd = await service.directory(prefix);
  const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
  const markers = await service.directory(`${prefix}-markers`);
  const log = join(markers, 'calls.log');
  await writeFile(log, '');
  return { cwd, envFile, markers, log, env: { EVAL_TEST_LOG: log, EVAL_TEST_MARKERS: markers } };
}

/** Starts `svc eval --worker <SCENARIO_AGENT>` in `cwd`; resolves once it has registered. */
async function startWorker(
  cwd: string,
  envFile: string,
  env: NodeJS.ProcessEnv,
  extra: { args?: string[]; nodeArgs?: string[] } = {},
): Promise<Worker> {
  const cli = spawnBuiltCli(
    ['eval', '--worker', SCENARIO_AGENT, '--env-file', envFile, ...(extra.args ?? [])],
    cwd,
    { env, ...(extra.nodeArgs === undefined ? {} : { nodeArgs: extra.nodeArgs }) },
  );
  const registered = await waitWhileRunning(
    cli,
    'the worker registered its local agent',
    () => /local agent ".*" \(([0-9a-f-]{36})\) serves /u.exec(cli.stderr.text) ?? undefined,
  );
  return { cli, agentId: registered[1]! };
}

/** Ctrl-C (or `signal`): resolves to how the worker exited. */
async function interrupt(worker: Worker, signal: NodeJS.Signals = 'SIGINT') {
  worker.cli.child.kill(signal);
  return worker.cli.exit;
}

/** Resolves to the launch once it is `completed`, polling the service while the worker runs. */
function launchCompleted(worker: Worker, launchId: string) {
  return waitWhileRunning(worker.cli, `launch ${launchId} completed`, async () => {
    const launch = await service.client.getLaunch(launchId);
    return launch.state === 'completed' ? launch : undefined;
  });
}

/** The calls the agent got (`<case>#<trial>`), sorted. */
async function agentCalls(log: string): Promise<string[]> {
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean).toSorted();
}

function trialOf(run: ScenarioRun, caseKey: string, trial = 1) {
  const slot = run.cases.find((item) => item.caseKey === caseKey)?.trials.find((t) => t.trial === trial);
  if (slot === undefined) throw new Error(`run ${run.id} has no trial ${caseKey}#${trial}`);
  return slot;
}

async function localAgent(agentId: string) {
  const agents = await service.client.listLocalAgents({ limit: 100 });
  const agent = agents.items.find((item) => item.id === agentId);
  if (agent === undefined) throw new Error(`no local agent ${agentId} is listed`);
  return agent;
}

/** The SDK's launch, expected refused with 409 `no_live_worker`. */
async function expectSdkLaunchRefused(slug: string) {
  const refused = await service.client
    .launchLocalRun({ idempotencyKey: randomUUID(), scenarioId: slug })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(SvcApiError.isInstance(refused)).toBe(true);
  expect(refused).toMatchObject({ status: 409, code: 'no_live_worker' });
  expect((refused as Error).message).toContain('svc eval --worker');
}

let mcp: Client;

beforeAll(async () => {
  mcp = new Client({ name: 'svc-worker-tests', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', service.server.origin), {
      requestInit: { headers: { authorization: `Bearer ${service.server.keys.mcp}` } },
    }),
  );
});

afterAll(async () => {
  await mcp?.close();
});

/** Calls `launch_local_run` through the official MCP client. */
async function launchOverMcp(args: Record<string, unknown>) {
  const result = await mcp.callTool({ name: 'launch_local_run', arguments: args });
  const text = (result.content as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');
  return {
    isError: result.isError === true,
    text,
    structured: result.structuredContent as
      | { runId: string; runUrl: string; launchId: string; agent: { id: string } }
      | undefined,
  };
}

/** Cases of the crash tests: one passing before the kill, one under way, one not started. */
const KILL_CASES: NotesCase[] = [
  { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
  { key: 'block', inputs: { behavior: 'block' } },
  { key: 'mcp', inputs: { behavior: 'mcp', text: 'eggs' } },
];

describe('svc eval --worker', () => {
  it('refuses a launch with no live worker, saying why, and makes nothing', async () => {
    const scenario = await publishNotesScenario(service.client, NOTES_CASES, 'unserved');
    expect((await service.client.listLocalAgents({ limit: 100 })).items.filter((a) => a.live)).toEqual([]);

    const refused = await launchOverMcp({ scenario: scenario.slug });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('No local agent is live');
    expect(refused.text).toContain('svc eval --worker <agent file> --env-file <file>');

    await expectSdkLaunchRefused(scenario.slug);
    expect((await service.client.listScenarioRuns(scenario.slug)).items).toEqual([]);
  });

  it(
    'serves a run launched through launch_local_run (official MCP client), keeps outputs and error messages, and stops on Ctrl-C',
    LONG,
    async () => {
      const scenario = await publishNotesScenario(service.client, NOTES_CASES, 'served');
      const { cwd, envFile, log, env } = await workspace('served');
      const worker = await startWorker(cwd, envFile, env);
      expect((await localAgent(worker.agentId)).live).toBe(true);

      const launched = await launchOverMcp({ scenario: scenario.slug, trials: 2 });
      expect(launched.isError, launched.text).toBe(false);
      const { runId, runUrl, launchId } = launched.structured!;
      expect(launched.structured!.agent.id).toBe(worker.agentId);
      expect(runUrl).toBe(`${service.server.origin}/scenarios/runs/${runId}`);

      const launch = await launchCompleted(worker, launchId);
      expect(launch).toMatchObject({ runId, agentId: worker.agentId, leases: 1 });
      const run = await waitWhileRunning(worker.cli, `run ${runId} graded`, async () => {
        const read = await service.client.getScenarioRun(runId);
        return read.complete ? read : undefined;
      });
      expect(Object.fromEntries(run.cases.map((item) => [item.caseKey, item.verdict]))).toEqual({
        add: 'PASS',
        mcp: 'PASS',
        wrong: 'FAIL',
        throws: 'ERROR',
      });
      for (const trial of [1, 2]) {
        expect(trialOf(run, 'add', trial)).toMatchObject({ state: 'sealed', outcome: 'passed' });
        expect(trialOf(run, 'mcp', trial)).toMatchObject({ state: 'sealed', outcome: 'passed' });
        expect(trialOf(run, 'wrong', trial)).toMatchObject({
          outcome: 'failed',
          failedChecks: ['butter noted'],
        });
        expect(trialOf(run, 'throws', trial)).toMatchObject({ outcome: 'errored' });
      }
      expect(run.totals).toMatchObject({
        trials: 8,
        sealed: 8,
        passed: 4,
        failed: 2,
        errored: 2,
        pending: 0,
      });

      // The agent was called once per trial.
      expect(await agentCalls(log)).toEqual(
        ['add', 'mcp', 'wrong', 'throws'].flatMap((key) => [`${key}#1`, `${key}#2`]).toSorted(),
      );
      // A worker always keeps case outputs and the messages of the errors its agent threw.
      const errored = await service.client.getTrial(trialOf(run, 'throws').trialId!);
      expect(errored.error).toEqual({ type: 'RangeError', message: 'the secret reason' });
      const passed = await service.client.getTrial(trialOf(run, 'add').trialId!);
      expect(passed.output).toBe('added milk');
      expect(worker.cli.stderr.text).toContain(runUrl);

      // Ctrl-C: a clean stop, the local agent stopped (and launches refused again).
      expect(await interrupt(worker)).toEqual({ code: 0, signal: null });
      expect(worker.cli.stderr.text).toContain('svc eval --worker: stopped.');
      expect(await localAgent(worker.agentId)).toMatchObject({ live: false, stoppedAt: expect.any(String) });
      const again = await launchOverMcp({ scenario: scenario.slug });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('No local agent is live');
      const asked = await launchOverMcp({ scenario: scenario.slug, agent_id: worker.agentId });
      expect(asked.isError).toBe(true);
      expect(asked.text).toContain('is not live (it stopped)');
      expect((await service.client.listScenarioRuns(scenario.slug)).items).toHaveLength(1);
    },
  );

  for (const where of ['the same', 'another'] as const) {
    it(
      `finishes the run of a worker killed mid-case in ${where} directory, never calling an agent twice for a trial`,
      LONG,
      async () => {
        const scenario = await publishNotesScenario(service.client, KILL_CASES, 'killed');
        const first = await workspace('killed');
        // Two lanes: `add` pauses after its agent returned (outcome saved, not sealed) while `block`'s
        // agent is under way; `mcp` is not started.
        const killed = await startWorker(
          first.cwd,
          first.envFile,
          { ...first.env, EVAL_TEST_PAUSE_AT: 'after-agent:add#1' },
          {
            args: ['--concurrency', '2'],
            nodeArgs: ['--import', PAUSE_AT],
          },
        );
        const launched = await service.client.launchLocalRun({
          idempotencyKey: randomUUID(),
          scenarioId: scenario.slug,
        });
        expect(launched.agent.id).toBe(killed.agentId);
        const { runId } = launched.launch;
        await waitForFile(
          join(first.markers, 'paused-after-agent-add#1'),
          killed.cli.exit,
          () => killed.cli.stderr.text,
        );
        await waitForFile(
          join(first.markers, 'block#1.running'),
          killed.cli.exit,
          () => killed.cli.stderr.text,
        );
        killed.cli.child.kill('SIGKILL');
        expect(await killed.cli.exit).toEqual({ code: null, signal: 'SIGKILL' });

        // The killed worker still holds the launch until its lease lapses on the service's clock.
        expect(await service.client.getLaunch(launched.launch.id)).toMatchObject({
          state: 'leased',
          agentId: killed.agentId,
        });
        clock += LIVE_MILLIS + 1;
        expect(await localAgent(killed.agentId)).toMatchObject({ live: false, stoppedAt: null });
        await expectSdkLaunchRefused(scenario.slug); // a dead worker serves nothing
        expect((await service.client.listScenarioRuns(scenario.slug)).items.map((r) => r.id)).toEqual([
          runId,
        ]);

        const second =
          where === 'the same' ? first : { ...(await workspace('taker')), log: first.log, env: first.env };
        const taker = await startWorker(second.cwd, second.envFile, first.env);
        const launch = await launchCompleted(taker, launched.launch.id);
        expect(launch).toMatchObject({ agentId: taker.agentId, leases: 2 });
        expect(taker.cli.stderr.text).toContain(`Run ${launched.launch.runUrl}: 3 cases (resumed)`);

        const run = await service.client.getScenarioRun(runId);
        // Each agent called once: none again after the kill, `mcp` once by the taker.
        expect(await agentCalls(first.log)).toEqual(['add#1', 'block#1', 'mcp#1']);
        const blocked = await service.client.getTrial(trialOf(run, 'block').trialId!);
        expect(blocked).toMatchObject({ state: 'sealed', outcome: 'errored' });
        expect(blocked.error?.type).toBe('UncertainExecution');
        expect(trialOf(run, 'mcp')).toMatchObject({ state: 'sealed', outcome: 'passed' });
        const added = await service.client.getTrial(trialOf(run, 'add').trialId!);
        if (where === 'the same') {
          // Its records: `block`'s agent may have run; `add`'s saved outcome is sealed as it was.
          expect(blocked.error?.message).toContain('the agent may have completed, so it is not run again');
          expect(added).toMatchObject({ outcome: 'passed', output: 'added milk' });
          expect(run.totals).toMatchObject({ trials: 3, sealed: 3, passed: 2, errored: 1 });
        } else {
          // No records here: both trials the killed worker opened may have run; neither runs again.
          expect(blocked.error?.message).toContain('started by another process');
          expect(added).toMatchObject({ outcome: 'errored', error: { type: 'UncertainExecution' } });
          expect(run.totals).toMatchObject({ trials: 3, sealed: 3, passed: 1, errored: 2 });
        }

        expect(await interrupt(taker)).toEqual({ code: 0, signal: null });
        expect(await localAgent(taker.agentId)).toMatchObject({ live: false, stoppedAt: expect.any(String) });
      },
    );
  }

  it(
    'on Ctrl-C seals the trial under way as interrupted, gives the launch back and stops; another worker finishes it',
    LONG,
    async () => {
      const scenario = await publishNotesScenario(
        service.client,
        [
          { key: 'block', inputs: { behavior: 'block' } },
          { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
        ],
        'stopped',
      );
      const { cwd, envFile, markers, log, env } = await workspace('stopped');
      const worker = await startWorker(cwd, envFile, env);
      const launched = await launchOverMcp({ scenario: scenario.slug });
      expect(launched.isError, launched.text).toBe(false);
      const { runId, launchId } = launched.structured!;
      await waitForFile(join(markers, 'block#1.running'), worker.cli.exit, () => worker.cli.stderr.text);

      // The blocked agent ignores context.signal and keeps a timer: the worker still ends.
      expect(await interrupt(worker)).toEqual({ code: 0, signal: null });
      expect(worker.cli.stderr.text).toContain('block#1: ERRORED (Interrupted)');
      expect(worker.cli.stderr.text).toContain('given back with 1 trials to run');
      // The blocked agent ignores context.signal and keeps a timer: svc ends anyway (bin.ts).
      expect(worker.cli.stderr.text).toContain('svc eval --worker: stopped.');
      expect(await service.client.getLaunch(launchId)).toMatchObject({
        state: 'queued',
        agentId: null,
        leases: 1,
      });
      expect(await localAgent(worker.agentId)).toMatchObject({ live: false, stoppedAt: expect.any(String) });
      let run = await service.client.getScenarioRun(runId);
      const stopped = await service.client.getTrial(trialOf(run, 'block').trialId!);
      expect(stopped).toMatchObject({ state: 'sealed', outcome: 'errored', error: { type: 'Interrupted' } });
      expect(trialOf(run, 'add')).toMatchObject({ state: 'not_started', trialId: null });

      // The launch goes to the next worker, which runs only what is left.
      const next = await startWorker(cwd, envFile, env);
      await launchCompleted(next, launchId);
      run = await service.client.getScenarioRun(runId);
      expect(trialOf(run, 'add')).toMatchObject({ state: 'sealed', outcome: 'passed' });
      expect(await agentCalls(log)).toEqual(['add#1', 'block#1']);
      // SIGTERM stops a worker as Ctrl-C does.
      expect(await interrupt(next, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(next.cli.stderr.text).toContain('svc eval --worker: stopped.');
      expect(await localAgent(next.agentId)).toMatchObject({ live: false, stoppedAt: expect.any(String) });
    },
  );

  it(
    'stops serving when the service stops its local agent: the trial under way sealed as interrupted, exit 1',
    LONG,
    async () => {
      const scenario = await publishNotesScenario(
        service.client,
        [
          { key: 'block', inputs: { behavior: 'block' } },
          { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
        ],
        'revoked',
      );
      const { cwd, envFile, markers, log, env } = await workspace('revoked');
      const worker = await startWorker(cwd, envFile, env);
      const launched = await service.client.launchLocalRun({
        idempotencyKey: randomUUID(),
        scenarioId: scenario.slug,
      });
      const { runId } = launched.launch;
      await waitForFile(join(markers, 'block#1.running'), worker.cli.exit, () => worker.cli.stderr.text);

      // Stopped from elsewhere (the API): what it held goes back to the queue, its next poll is refused.
      await service.client.stopLocalAgent(worker.agentId, randomUUID());
      expect(await worker.cli.exit).toEqual({ code: 1, signal: null });
      expect(worker.cli.stderr.text).toContain(
        `error: the service stopped this local agent (${worker.agentId})`,
      );
      let run = await service.client.getScenarioRun(runId);
      const stopped = await service.client.getTrial(trialOf(run, 'block').trialId!);
      expect(stopped).toMatchObject({ state: 'sealed', outcome: 'errored', error: { type: 'Interrupted' } });
      expect(trialOf(run, 'add')).toMatchObject({ state: 'not_started' });
      expect(await service.client.getLaunch(launched.launch.id)).toMatchObject({
        state: 'queued',
        agentId: null,
      });

      const next = await startWorker(cwd, envFile, env);
      await launchCompleted(next, launched.launch.id);
      run = await service.client.getScenarioRun(runId);
      expect(trialOf(run, 'add')).toMatchObject({ state: 'sealed', outcome: 'passed' });
      expect(await agentCalls(log)).toEqual(['add#1', 'block#1']);
      expect(await interrupt(next)).toEqual({ code: 0, signal: null });
    },
  );

  it('exits 2 on usage errors of the worker mode, registering nothing', LONG, async () => {
    const { cwd, envFile } = await workspace('usage');
    const noRunner = join(cwd, 'no-runner.mjs');
    await writeFile(noRunner, 'export function somethingElse() {}\n');
    const before = (await service.client.listLocalAgents({ limit: 100 })).items.length;
    const cases: [string[], string][] = [
      [['--worker', SCENARIO_AGENT, 'extra-arg', '--env-file', envFile], "unexpected argument 'extra-arg'"],
      [
        ['--worker', SCENARIO_AGENT, '--trials', '2', '--env-file', envFile],
        "option '--trials <k>' is not used with --worker",
      ],
      [
        ['--worker', SCENARIO_AGENT, '--json', '--env-file', envFile],
        "option '--json' is not used with --worker",
      ],
      [['--worker', SCENARIO_AGENT, '--scenario', 'notes', '--env-file', envFile], 'are different modes'],
      [['--worker', join(cwd, 'missing.ts'), '--env-file', envFile], 'does not exist'],
      [['--worker', noRunner, '--env-file', envFile], 'does not export a function runMyAgent'],
    ];
    for (const [args, message] of cases) {
      const end = await runBuiltCli(['eval', ...args], cwd);
      expect(end.code, `${args.join(' ')}: ${end.stderr}`).toBe(2);
      expect(end.stderr).toContain(message);
      expect(end.stdout).toBe('');
    }
    expect((await service.client.listLocalAgents({ limit: 100 })).items).toHaveLength(before);
  });
});
