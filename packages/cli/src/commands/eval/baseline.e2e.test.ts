/**
 * `svc eval --set … --baseline <experiment ID>`, end to end with the built `svc`: a run compared
 * case by case (by external key) with a previous experiment. Expectations from the issue:
 * regressions (passed before, not now), improvements, unchanged, new and missing cases, per-metric
 * deltas; a table after the per-case table and a `baseline` member in the JSON document; the exit
 * code stays the spec's. Also `--scorer-module` (a local-code scorer with a number metric).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScorerDefinition } from '@svc-run/sdk/evals';
import { describe, expect, it } from 'vitest';
import { length } from '../../testing/agents/length-scorer.mjs';
import { documentOf } from '../../testing/eval-document-schema.js';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
  writeEvalEnvFile,
} from '../../testing/eval-service.js';
import { runBuiltCli } from '../../testing/spawn-built-cli.js';

const LENGTH_MODULE = fileURLToPath(new URL('../../testing/agents/length-scorer.mjs', import.meta.url));

const service = useEvalService();

const includes: ScorerDefinition = {
  kind: 'builtin',
  builtin: 'includes',
  caseSensitive: true,
  metrics: [{ name: 'includes', type: 'boolean' }],
};

describe('svc eval --set --baseline', () => {
  it('reports regressions, improvements, unchanged, new and missing cases and metric deltas', async () => {
    const mentions = await createScorer(service.client, 'mentions', includes);
    const long = await createScorer(service.client, 'length', length.definition);
    const cwd = await service.directory('baseline');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const run = async (slug: string, answers: Record<string, string>, ...more: string[]) =>
      runBuiltCli(
        [
          'eval',
          ...['--set', slug, '--scorer', mentions.slug, '--scorer', long.slug],
          ...['--scorer-module', LENGTH_MODULE, '--command', TEST_AGENT_COMMAND, '--env-file', envFile],
          ...more,
        ],
        cwd,
        { env: { EVAL_TEST_ANSWERS: JSON.stringify(answers) } },
      );

    // Before: a and c pass, b fails, gone passes.
    const before = await createEvalSet(service.client, 'before', [
      { externalKey: 'a', inputs: {}, expected: 'alpha' },
      { externalKey: 'b', inputs: {}, expected: 'beta' },
      { externalKey: 'c', inputs: {}, expected: 'gamma' },
      { externalKey: 'gone', inputs: {}, expected: 'old' },
    ]);
    const first = await run(before.slug, { a: 'alpha', b: 'nope', c: 'gamma', gone: 'old' }, '--json');
    expect(first.code).toBe(1);
    const baseline = documentOf(first.stdout);

    // Now: a fails (regressed), b passes (improved), c passes (unchanged), fresh is new, gone missing.
    const now = await createEvalSet(service.client, 'now', [
      { externalKey: 'a', inputs: {}, expected: 'alpha' },
      { externalKey: 'b', inputs: {}, expected: 'beta' },
      { externalKey: 'c', inputs: {}, expected: 'gamma' },
      { externalKey: 'fresh', inputs: {}, expected: 'new' },
    ]);
    const answers = { a: 'wrong', b: 'beta, longer', c: 'gamma', fresh: 'new' };
    const second = await run(now.slug, answers, '--json', '--baseline', baseline.experimentId);
    expect(second.code).toBe(1); // a failed: the exit code stays the spec's
    const document = documentOf(second.stdout);
    expect(document.baseline).toMatchObject({
      experimentId: baseline.experimentId,
      runUrl: `${service.server.origin}/experiments/${baseline.experimentId}`,
      counts: { regressed: 1, improved: 1, unchanged: 1, changed: 0, new: 1, missing: 1 },
    });
    const cases = new Map(document.baseline!.cases.map((item) => [item.externalKey, item]));
    expect(cases.get('a')).toMatchObject({ change: 'regressed', before: 'PASS', after: 'FAIL' });
    expect(cases.get('b')).toMatchObject({ change: 'improved', before: 'FAIL', after: 'PASS' });
    expect(cases.get('c')).toMatchObject({ change: 'unchanged', before: 'PASS', after: 'PASS' });
    expect(cases.get('fresh')).toMatchObject({ change: 'new', before: null, after: 'PASS' });
    expect(cases.get('gone')).toMatchObject({ change: 'missing', before: 'PASS', after: null });
    expect(cases.get('a')?.metrics).toEqual(
      expect.arrayContaining([
        { scorer: mentions.slug, metric: 'includes', before: true, after: false },
        { scorer: long.slug, metric: 'length', before: 5, after: 5, delta: 0 },
      ]),
    );
    expect(cases.get('b')?.metrics).toContainEqual({
      scorer: long.slug,
      metric: 'length',
      before: 4,
      after: 12,
      delta: 8,
    });
    // Over the run: pass rate 3/4 before and after; mean length (5+4+5+3)/4 before, (5+12+5+3)/4 now.
    expect(document.baseline!.metrics).toEqual([
      {
        scorer: mentions.slug,
        metric: 'includes',
        measure: 'pass rate',
        before: 0.75,
        after: 0.75,
        delta: 0,
      },
      { scorer: long.slug, metric: 'length', measure: 'mean', before: 4.25, after: 6.25, delta: 2 },
    ]);

    // The human report (stderr with --json): the comparison after the per-case table.
    const report = second.stderr;
    expect(report.indexOf('Compared with experiment')).toBeGreaterThan(report.indexOf('Totals:'));
    expect(report).toContain(
      `Compared with experiment ${baseline.experimentId}: 1 regressed, 1 improved, 1 unchanged, 0 changed, 1 new, 1 missing`,
    );
    expect(report).toMatch(
      new RegExp(`^a +PASS +FAIL +regressed +${mentions.slug}/includes true → false$`, 'm'),
    );
    expect(report).toMatch(/^gone +PASS +– +missing/m);
    expect(report).toMatch(/^fresh +– +PASS +new/m);
    expect(report).toMatch(new RegExp(`^${long.slug}/length +mean +4\\.25 +6\\.25 +\\+2$`, 'm'));
  });

  it('refuses a baseline the project does not have before running anything (exit 1)', async () => {
    const mentions = await createScorer(service.client, 'mentions', includes);
    const set = await createEvalSet(service.client, 'lone', [
      { externalKey: 'a', inputs: { answer: 'x' }, expected: 'x' },
    ]);
    const cwd = await service.directory('baseline');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const log = join(cwd, 'commands.log');
    const missing = '00000000-0000-4000-8000-000000000000';
    const end = await runBuiltCli(
      [
        'eval',
        ...['--set', set.slug, '--scorer', mentions.slug, '--command', TEST_AGENT_COMMAND],
        ...['--env-file', envFile, '--baseline', missing],
      ],
      cwd,
      { env: { EVAL_TEST_LOG: log } },
    );
    expect(end.code).toBe(1);
    expect(end.stderr).toBe(`error: --baseline: the project has no experiment ${missing}.\n`);
    expect(existsSync(log)).toBe(false);
    expect(existsSync(join(cwd, '.svc'))).toBe(false);
  });
});
