/**
 * `svc eval --scenario "<name>" <agent file>` end to end: the built `svc` in a child process
 * against the reference server, with the TypeScript test agent (`testing/agents/scenario-agent.ts`,
 * run as it is) in the notes scenario (`testing/notes-scenario.ts`). Expectations from issue 17 and
 * the spec's command-line evaluator: per-case PASS / FAIL with the failed checks' names (never what
 * they expected), the run URL, exit codes 0 / 1 / 2, the `--json` document (checked against its
 * published JSON Schema), pass^k with `--trials 3`, every case's agent work in a span with its
 * tool calls, crash safety (SIGKILL at each step of a trial, then the same command resumes; no
 * agent called twice for a trial that may have completed), Ctrl-C, and `--baseline`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useEvalService, writeEvalEnvFile } from '../../../testing/eval-service.js';
import { type NotesCase, publishNotesScenario, SCENARIO_AGENT } from '../../../testing/notes-scenario.js';
import { scenarioDocumentOf } from '../../../testing/scenario-document-schema.js';
import { runBuiltCli, spawnBuiltCli } from '../../../testing/spawn-built-cli.js';
import { waitForFile } from '../../../testing/wait-for-file.js';

const PAUSE_AT = fileURLToPath(new URL('../../../testing/agents/pause-at-step.mjs', import.meta.url));

const service = useEvalService();

/** A working directory with its env file (a Read-and-write key) and the agent's call log. */
async function workspace(prefix: string) {
  const cwd = await service.directory(prefix);
  const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
  const log = join(cwd, 'calls.log');
  await writeFile(log, '');
  const calls = async () => (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
  return { cwd, envFile, log, calls, env: { EVAL_TEST_LOG: log, EVAL_TEST_MARKERS: cwd } };
}

function scenarioArgs(name: string, envFile: string, ...more: string[]) {
  return ['eval', '--scenario', name, SCENARIO_AGENT, '--env-file', envFile, ...more];
}

describe('svc eval --scenario', () => {
  it('runs each case in a fresh world and prints PASS / FAIL by check name, the run URL; exit 1', {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client);
    const on = await workspace('report');
    const end = await runBuiltCli(scenarioArgs(scenario.name, on.envFile), on.cwd, { env: on.env });
    expect(end.code, end.stderr).toBe(1);
    const lines = end.stdout.split('\n');
    const row = (key: string) => lines.find((line) => line.startsWith(`${key} `))?.replace(/\s+/g, ' ');
    expect(row('add')).toBe('add PASS');
    expect(row('mcp')).toBe('mcp PASS');
    expect(row('wrong')).toBe('wrong FAIL failed: butter noted');
    // The agent's error by its type: its message is content, kept only with --content.
    expect(row('throws')).toBe('throws ERROR RangeError');
    expect(end.stdout).not.toContain('the secret reason');
    // Never what a check expected.
    expect(end.stdout).not.toMatch(/butter"|"text"/);
    const runUrl = /^Run: (\S+)$/m.exec(end.stdout)?.[1];
    expect(runUrl).toMatch(new RegExp(`^${service.server.origin}/scenarios/runs/[0-9a-f-]{36}$`));
    expect(end.stdout).toContain('Totals: 2 passed, 1 failed, 1 errored, 0 pending, of 4');
    // Each trial's agent was called once.
    expect((await on.calls()).toSorted()).toEqual(['add#1', 'mcp#1', 'throws#1', 'wrong#1']);

    // The run URL opens the run's page; the run holds each trial's trace, where the agent's work
    // is a span with its tool calls into the world as children.
    const runId = runUrl!.split('/').at(-1)!;
    const run = await service.client.getScenarioRun(runId);
    const add = run.cases.find((item) => item.caseKey === 'mcp')!.trials[0]!;
    expect(add.traceId).toMatch(/^[0-9a-f]{32}$/);
    const outline = (await (
      await fetch(`${service.server.origin}/api/v1/traces/${add.traceId}`, {
        headers: { authorization: `Bearer ${service.server.keys.read}` },
      })
    ).json()) as { spans: unknown[] };
    const spans = outline.spans as { name: string; spanId: string; parentSpanId: string | null }[];
    const root = spans.find((span) => span.name === 'scenario trial');
    expect(root).toBeDefined();
    const tool = spans.find((span) => span.name === 'execute_tool add_note');
    expect(tool?.parentSpanId).toBe(root!.spanId);
    // The outcome beside the agent's work: the seal, under the trial's span.
    const seal = spans.find((span) => span.name === 'scenario seal');
    expect(seal?.parentSpanId).toBe(root!.spanId);
    const detail = JSON.stringify(
      await (
        await fetch(`${service.server.origin}/api/v1/traces/${add.traceId}/spans/${seal!.spanId}`, {
          headers: { authorization: `Bearer ${service.server.keys.read}` },
        })
      ).json(),
    );
    expect(detail).toContain('svc.scenario.outcome');
    expect(detail).toContain('"passed"');
  });

  it('exits 0 when every case passes, and --json prints the document its schema describes', {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
      { key: 'mcp', inputs: { behavior: 'mcp', text: 'eggs' } },
    ]);
    const on = await workspace('json');
    const end = await runBuiltCli(scenarioArgs(scenario.slug, on.envFile, '--json'), on.cwd, { env: on.env });
    expect(end.code, end.stderr).toBe(0);
    const document = scenarioDocumentOf(end.stdout);
    expect(document.mode).toBe('scenario');
    expect(document.scenario).toMatchObject({
      slug: scenario.slug,
      versionId: scenario.versionId,
      version: 1,
    });
    expect(document.cases.map((item) => [item.caseKey, item.state])).toEqual([
      ['add', 'PASS'],
      ['mcp', 'PASS'],
    ]);
    expect(document.totals).toEqual({ cases: 2, passed: 2, failed: 0, errored: 0, pending: 0, trials: 2 });
    expect(document.complete).toBe(true);
    expect(document.runUrl).toBe(`${service.server.origin}/scenarios/runs/${document.runId}`);
    // The human report goes to stderr with --json.
    expect(end.stderr).toContain(`Run: ${document.runUrl}`);
  });

  it('--trials 3: every case three times, each in its own world; pass^k per case', {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
      { key: 'wrong', inputs: { behavior: 'add', text: 'bread' } },
    ]);
    const on = await workspace('trials');
    const end = await runBuiltCli(
      scenarioArgs(scenario.slug, on.envFile, '--trials', '3', '--json'),
      on.cwd,
      {
        env: on.env,
      },
    );
    expect(end.code, end.stderr).toBe(1);
    const document = scenarioDocumentOf(end.stdout);
    expect(document.trials).toBe(3);
    const add = document.cases.find((item) => item.caseKey === 'add')!;
    const wrong = document.cases.find((item) => item.caseKey === 'wrong')!;
    expect([add.state, add.passHatK, add.passed]).toEqual(['PASS', 1, 3]);
    expect([wrong.state, wrong.passHatK, wrong.passed]).toEqual(['FAIL', 0, 0]);
    expect(document.passHatK).toBe(0.5);
    // Three trials, three worlds: each trial's world started empty (one note each, checked by
    // `milk noted` and the trials' distinct IDs).
    expect(new Set(add.trials.map((trial) => trial.trialId)).size).toBe(3);
    expect(add.trials.map((trial) => trial.outcome)).toEqual(['passed', 'passed', 'passed']);
    expect((await on.calls()).toSorted()).toEqual([
      'add#1',
      'add#2',
      'add#3',
      'wrong#1',
      'wrong#2',
      'wrong#3',
    ]);
    expect(end.stderr).toMatch(/^add\s+PASS\s+1\s+3\/3/m);
    expect(end.stderr).toMatch(/^wrong\s+FAIL\s+0\s+0\/3\s+failed: butter noted/m);
    expect(end.stderr).toContain('pass^3: 0.5');
  });

  it('--content keeps the error an agent threw; without it only its type', { timeout: 300_000 }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'throws', inputs: { behavior: 'throw', text: 'the secret reason' } },
    ]);
    const on = await workspace('content');
    const without = scenarioDocumentOf(
      (await runBuiltCli(scenarioArgs(scenario.slug, on.envFile, '--json'), on.cwd, { env: on.env })).stdout,
    );
    expect(without.cases[0]!.trials[0]!.error).toEqual({ type: 'RangeError' });
    const other = await workspace('content-on');
    const kept = scenarioDocumentOf(
      (await runBuiltCli(scenarioArgs(scenario.slug, other.envFile, '--json', '--content'), other.cwd))
        .stdout,
    );
    expect(kept.cases[0]!.trials[0]!.error).toEqual({ type: 'RangeError', message: 'the secret reason' });
    expect(kept.cases[0]!.state).toBe('ERROR');
  });

  it("the agent sees its world's tools and files, nothing of the grading, no service key", {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'inspect', inputs: { behavior: 'inspect' } },
    ]);
    const on = await workspace('inspect');
    const end = await runBuiltCli(scenarioArgs(scenario.slug, on.envFile, '--json', '--content'), on.cwd, {
      env: on.env,
    });
    const document = scenarioDocumentOf(end.stdout);
    const trial = await service.client.getTrial(document.cases[0]!.trials[0]!.trialId!);
    const seen = trial.output as Record<string, unknown>;
    expect(seen.tools).toEqual(['add_note', 'list_notes']);
    expect(seen.mcpTools).toEqual(['add_note', 'list_notes']);
    expect(seen.files).toEqual([]);
    expect(JSON.stringify(seen.unknownTool)).toMatch(/get_scenario/);
    expect(seen.badArguments).toMatchObject({ isError: true });
    expect(seen.environment).toEqual([]);
    // Nothing it saw names a check.
    expect(JSON.stringify(seen)).not.toMatch(/noted|says added|add_note called|no note added/);
  });
});

describe('svc eval --scenario crash and resume', () => {
  // Each case is killed at one step (one case per run, the runs resuming each other).
  const KILLS = [
    { key: 'before', step: 'before-agent', behavior: 'add' },
    { key: 'during', step: 'during-agent', behavior: 'block' },
    { key: 'after', step: 'after-agent', behavior: 'add' },
    { key: 'sealed', step: 'after-seal', behavior: 'add' },
  ] as const;

  it('resumes after SIGKILL at each step of a trial: sealed once, no agent called twice', {
    timeout: 600_000,
  }, async () => {
    const cases: NotesCase[] = [
      ...KILLS.map(({ key, behavior }) => ({ key, inputs: { behavior, text: key } })),
      { key: 'last', inputs: { behavior: 'add', text: 'last' } },
    ];
    const scenario = await publishNotesScenario(service.client, cases);
    const on = await workspace('crash');
    const args = scenarioArgs(scenario.slug, on.envFile, '--json');
    for (const { key, step } of KILLS) {
      const cli = spawnBuiltCli(args, on.cwd, {
        env: { ...on.env, EVAL_TEST_PAUSE_AT: `${step}:${key}#1` },
        nodeArgs: ['--import', PAUSE_AT],
      });
      const marker = join(on.cwd, step === 'during-agent' ? `${key}#1.running` : `paused-${step}-${key}#1`);
      await waitForFile(marker, cli.exit, () => cli.stderr.text);
      cli.child.kill('SIGKILL');
      expect(await cli.exit, `killed at ${step}`).toEqual({ code: null, signal: 'SIGKILL' });
    }
    const end = await runBuiltCli(args, on.cwd, { env: on.env });
    expect(end.code, end.stderr).toBe(1);
    const document = scenarioDocumentOf(end.stdout);
    expect(document.runNumber).toBe(1); // one run, resumed four times
    expect(document.cases.map((item) => [item.caseKey, item.state])).toEqual([
      ['before', 'ERROR'], // its intent to call the agent was saved: it may have run, never again
      ['during', 'ERROR'],
      ['after', 'PASS'], // its outcome was saved: sealed on the resume
      ['sealed', 'PASS'],
      ['last', 'PASS'],
    ]);
    for (const key of ['before', 'during']) {
      const trial = document.cases.find((item) => item.caseKey === key)!.trials[0]!;
      expect(trial.error?.type).toBe('UncertainExecution');
    }
    // No agent called twice; `before` was killed before its call.
    expect((await on.calls()).toSorted()).toEqual(['after#1', 'during#1', 'last#1', 'sealed#1']);
    // Each trial sealed once: the run has one trial per case, every one sealed.
    const run = await service.client.getScenarioRun(document.runId);
    expect(run.totals).toMatchObject({ trials: 5, sealed: 5 });
  });

  it('--timeout ends a trial whose agent does not return (errored, and svc exits); a reported run is not resumed', {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'blocks', inputs: { behavior: 'block' } },
    ]);
    const on = await workspace('timeout');
    const args = scenarioArgs(scenario.slug, on.envFile, '--json', '--timeout', '1');
    const first = await runBuiltCli(args, on.cwd, { env: on.env });
    expect(first.code, first.stderr).toBe(1);
    const document = scenarioDocumentOf(first.stdout);
    expect(document.cases[0]!.trials[0]!.error).toEqual({
      type: 'AgentTimedOut',
      message: 'runMyAgent did not return within 1 s (--timeout)',
    });
    // The command reported: the next invocation is a new run.
    const next = await runBuiltCli(args, on.cwd, { env: on.env });
    expect(scenarioDocumentOf(next.stdout)).toMatchObject({ runNumber: 2 });
    expect(await on.calls()).toEqual(['blocks#1', 'blocks#1']);
  });

  it('Ctrl-C seals the trial under way as interrupted, exits 130, and the rerun finishes the run', {
    timeout: 300_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'blocks', inputs: { behavior: 'block' } },
      { key: 'after', inputs: { behavior: 'add', text: 'milk' } },
    ]);
    const on = await workspace('interrupt');
    const args = scenarioArgs(scenario.slug, on.envFile, '--json');
    const cli = spawnBuiltCli(args, on.cwd, { env: on.env });
    await waitForFile(join(on.cwd, 'blocks#1.running'), cli.exit, () => cli.stderr.text);
    cli.child.kill('SIGINT');
    const stopped = await cli.exit;
    expect(stopped.code, cli.stderr.text).toBe(130);
    expect(cli.stderr.text).toContain('Rerun the same command to resume it');
    const end = await runBuiltCli(args, on.cwd, { env: on.env });
    const document = scenarioDocumentOf(end.stdout);
    expect(document.cases.map((item) => [item.caseKey, item.state])).toEqual([
      ['blocks', 'ERROR'],
      ['after', 'PASS'],
    ]);
    expect(document.cases[0]!.trials[0]!.error?.type).toBe('Interrupted');
    expect((await on.calls()).toSorted()).toEqual(['after#1', 'blocks#1']);
  });
});

describe('svc eval --scenario --baseline', () => {
  it('compares case by case with an earlier run of the scenario', { timeout: 300_000 }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
      { key: 'wrong', inputs: { behavior: 'add', text: 'bread' } },
    ]);
    const on = await workspace('baseline');
    const first = scenarioDocumentOf(
      (await runBuiltCli(scenarioArgs(scenario.slug, on.envFile, '--json'), on.cwd)).stdout,
    );
    const second = await runBuiltCli(
      scenarioArgs(scenario.slug, on.envFile, '--json', '--baseline', first.experimentId),
      on.cwd,
    );
    const document = scenarioDocumentOf(second.stdout);
    expect(document.baseline).toMatchObject({
      experimentId: first.experimentId,
      runUrl: first.runUrl,
      counts: { regressed: 0, improved: 0, unchanged: 2, changed: 0, new: 0, missing: 0 },
    });
    expect(second.stderr).toContain(`Compared with experiment ${first.experimentId}`);

    const unknown = await runBuiltCli(
      scenarioArgs(scenario.slug, on.envFile, '--baseline', '00000000-0000-4000-8000-000000000000'),
      on.cwd,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('is not the experiment of a run of this scenario');
  });
});

describe('svc eval --scenario refusals', () => {
  it.each([
    [['eval', '--scenario', 'x'], 'error: missing the agent file'],
    [
      ['eval', '--scenario', 'x', 'a.ts', '--command', 'true'],
      "error: option '--command <command>' is not used with --scenario",
    ],
    [['eval', '--set', 'a', '--scenario', 'x', 'a.ts'], 'error: --set, --scenario are different modes'],
    [
      ['eval', '--scenario', 'x', 'a.ts', '--trials', '0'],
      "error: option '--trials <k>' argument '0' is invalid.",
    ],
    [
      ['eval', '--scenario', 'x', 'a.ts', '--trials', '101'],
      "error: option '--trials <k>' argument '101' is invalid.",
    ],
    [
      ['eval', '--set', 'a', '--scorer', 's', '--command', 'true', 'a.ts'],
      "error: unexpected argument 'a.ts'",
    ],
    [
      ['eval', '--set', 'a', '--scorer', 's', '--command', 'true', '--trials', '2'],
      "error: option '--trials <k>' is not used with --set",
    ],
  ])('svc %j exits 2', async (args, message) => {
    const end = await runBuiltCli(args, await service.directory('usage'));
    expect(end.code).toBe(2);
    expect(end.stdout).toBe('');
    expect(end.stderr.startsWith(message), end.stderr).toBe(true);
  });

  it('refuses an agent file that is missing or exports no runMyAgent (2), an unknown scenario (1)', {
    timeout: 120_000,
  }, async () => {
    const scenario = await publishNotesScenario(service.client, [
      { key: 'add', inputs: { behavior: 'add', text: 'a' } },
    ]);
    const on = await workspace('refusals');
    const missing = await runBuiltCli(
      ['eval', '--scenario', scenario.slug, 'nowhere.ts', '--env-file', on.envFile],
      on.cwd,
    );
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('nowhere.ts does not exist')]);
    await writeFile(join(on.cwd, 'other.mjs'), 'export const agent = 1;\n');
    const noExport = await runBuiltCli(
      ['eval', '--scenario', scenario.slug, 'other.mjs', '--env-file', on.envFile],
      on.cwd,
    );
    expect([noExport.code, noExport.stderr]).toEqual([
      2,
      expect.stringContaining('does not export a function runMyAgent'),
    ]);
    const unknown = await runBuiltCli(scenarioArgs('No such scenario', on.envFile), on.cwd);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining('the project has no scenario'),
    ]);
    // Nothing was run.
    expect(await service.client.listScenarioRuns(scenario.slug)).toMatchObject({ items: [] });
  });
});
