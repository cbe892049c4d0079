/**
 * `svc eval --set` crash and resume, end to end: the built `svc` executable in a child process is
 * killed with SIGKILL at each step of a case — before its command, during it, after it, after the
 * upload (outcome saved, execution not completed), after scoring (results submitted, answer not
 * saved) — and the same command is run again each time, resuming the run. Expectations from the
 * issue: one result per case, no command run twice for a case whose command may have completed
 * (such a case is reported as errored with the reason), and `--retry-errors` then reruns only the
 * errored cases. Ctrl-C (SIGINT) stops the run with exit code 130, and the rerun reports the case
 * whose command it stopped as errored.
 *
 * Deterministic: the kill points are reached through test hooks (`testing/agents/pause-at-step.mjs`,
 * preloaded with `node --import`) that write a marker and wait to be killed; "during the command"
 * is the test agent's `block-once` case, which writes its marker and blocks. No timing is assumed.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScorerDefinition } from '@svc-run/sdk/evals';
import { describe, expect, it } from 'vitest';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
  writeEvalEnvFile,
} from '../../testing/eval-service.js';
import { runBuiltCli, spawnBuiltCli } from '../../testing/spawn-built-cli.js';
import { waitForFile } from '../../testing/wait-for-file.js';
import type { EvalDocument } from './eval-document.js';

const PAUSE_AT = fileURLToPath(new URL('../../testing/agents/pause-at-step.mjs', import.meta.url));

const service = useEvalService();

const includes: ScorerDefinition = {
  kind: 'builtin',
  builtin: 'includes',
  caseSensitive: true,
  metrics: [{ name: 'includes', type: 'boolean' }],
};

// Each case is killed at one step, in case order (one case per run, the runs resuming each other).
const KILLS = [
  { key: 'before', step: 'before-command' },
  { key: 'during', step: 'during-command' },
  { key: 'after', step: 'after-command' },
  { key: 'uploaded', step: 'after-upload' },
  { key: 'scored', step: 'after-scoring' },
] as const;

/** Cases whose command may have completed when the run was killed: errored, never run again. */
const UNCERTAIN = ['during', 'after'];

describe('svc eval --set crash and resume', () => {
  // The timeout is for a hang, not for a slow machine: eight runs of the executable.
  it('resumes after SIGKILL at each step of a case: one result per case, no command run twice', {
    timeout: 600_000,
  }, async () => {
    const set = await createEvalSet(service.client, 'crash', [
      ...KILLS.map(({ key, step }) => ({
        externalKey: key,
        inputs: step === 'during-command' ? { behavior: 'block-once', answer: key } : { answer: key },
        expected: key,
      })),
      { externalKey: 'last', inputs: { answer: 'last' }, expected: 'last' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const cwd = await service.directory('crash');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const markers = await service.directory('markers');
    const log = join(markers, 'commands.log');
    await writeFile(log, '');
    const env = { EVAL_TEST_LOG: log, EVAL_TEST_MARKERS: markers };
    const args = [
      'eval',
      ...['--set', set.slug, '--scorer', scorer.slug, '--command', TEST_AGENT_COMMAND],
      ...['--env-file', envFile, '--json'],
    ];

    for (const { key, step } of KILLS) {
      const cli = spawnBuiltCli(args, cwd, {
        env: { ...env, EVAL_TEST_PAUSE_AT: `${step}:${key}` },
        nodeArgs: ['--import', PAUSE_AT],
      });
      const marker = join(markers, step === 'during-command' ? `${key}.running` : `paused-${step}-${key}`);
      await waitForFile(marker, cli.exit, () => cli.stderr.text);
      cli.child.kill('SIGKILL');
      expect(await cli.exit, `killed at ${step}`).toEqual({ code: null, signal: 'SIGKILL' });
    }

    const end = await runBuiltCli(args, cwd, { env });
    expect(end.code).toBe(1);
    const document = JSON.parse(end.stdout) as EvalDocument;
    const byKey = new Map(document.cases.map((item) => [item.externalKey, item]));
    expect(document.cases.map((item) => [item.externalKey, item.state])).toEqual([
      ['before', 'PASS'], // killed before its command: the command ran on the resume
      ['during', 'ERROR'],
      ['after', 'ERROR'],
      ['uploaded', 'PASS'],
      ['scored', 'PASS'],
      ['last', 'PASS'],
    ]);
    for (const key of UNCERTAIN) {
      expect(byKey.get(key)?.error).toMatchObject({
        type: 'UncertainExecution',
        message: expect.stringContaining('the command may have completed, so it is not run again'),
      });
    }
    // The command of `after` ended before the kill: its report was kept.
    expect(byKey.get('after')?.command).toMatchObject({ exitCode: 0, stdout: 'answered after\n' });

    // Each command ran once: none twice, none lost.
    const runs = (await readFile(log, 'utf8')).trim().split('\n');
    expect(runs.toSorted()).toEqual(['after', 'before', 'during', 'last', 'scored', 'uploaded']);

    // One result per case that completed, none for the uncertain ones.
    const results = (await service.client.listResults(document.runId, { limit: 100 })).items;
    const resultsPerItem = new Map<string, number>();
    for (const result of results) {
      resultsPerItem.set(result.evaluationItemId, (resultsPerItem.get(result.evaluationItemId) ?? 0) + 1);
    }
    for (const item of document.cases) {
      const execution = await service.client.getExecution(item.executionId!);
      if (UNCERTAIN.includes(item.externalKey)) {
        expect(execution.state, item.externalKey).toBe('started');
      } else {
        expect(resultsPerItem.get(execution.evaluationItemId!), item.externalKey).toBe(1);
      }
    }
    expect(results).toHaveLength(4);

    // --retry-errors runs only the errored cases again, once, and the run then passes.
    const retried = await runBuiltCli([...args, '--retry-errors'], cwd, { env });
    expect(retried.code).toBe(0);
    const after = JSON.parse(retried.stdout) as EvalDocument;
    expect(after.experimentId).toBe(document.experimentId);
    expect(after.totals).toEqual({ cases: 6, passed: 6, failed: 0, errored: 0, pending: 0 });
    const again = (await readFile(log, 'utf8')).trim().split('\n').slice(runs.length);
    expect(again.toSorted()).toEqual(UNCERTAIN.toSorted());
    expect(existsSync(join(cwd, '.svc', 'runs', '.gitignore'))).toBe(true);
  });

  it('stops on Ctrl-C (SIGINT) with exit code 130, and the rerun reports the stopped case as errored', {
    timeout: 600_000,
  }, async () => {
    const set = await createEvalSet(service.client, 'interrupt', [
      { externalKey: 'first', inputs: { answer: 'first' }, expected: 'first' },
      { externalKey: 'stopped', inputs: { behavior: 'block-once', answer: 'x' }, expected: 'x' },
      { externalKey: 'later', inputs: { answer: 'later' }, expected: 'later' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const cwd = await service.directory('interrupt');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const markers = await service.directory('markers');
    const log = join(markers, 'commands.log');
    await writeFile(log, '');
    const env = { EVAL_TEST_LOG: log, EVAL_TEST_MARKERS: markers };
    const args = [
      'eval',
      ...['--set', set.slug, '--scorer', scorer.slug, '--command', TEST_AGENT_COMMAND],
      ...['--env-file', envFile, '--json'],
    ];
    const cli = spawnBuiltCli(args, cwd, { env });
    await waitForFile(join(markers, 'stopped.running'), cli.exit, () => cli.stderr.text);
    cli.child.kill('SIGINT');
    expect(await cli.exit).toEqual({ code: 130, signal: null });
    expect(cli.stdout.text).toBe('');
    expect(cli.stderr.text).toContain(
      'error: interrupted: the run stopped. Rerun the same command to resume it',
    );

    const end = await runBuiltCli(args, cwd, { env });
    expect(end.code).toBe(1);
    const document = JSON.parse(end.stdout) as EvalDocument;
    expect(document.cases.map((item) => [item.externalKey, item.state])).toEqual([
      ['first', 'PASS'],
      ['stopped', 'ERROR'],
      ['later', 'PASS'],
    ]);
    expect(document.cases[1]?.error?.type).toBe('UncertainExecution');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['first', 'stopped', 'later']);
  });
});
