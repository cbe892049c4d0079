/**
 * `svc eval --set` with an `llm_judge` scorer, end to end: the built `svc` in a child process
 * against the reference server, whose hosted judges call a mock AI SDK model. With `--wait 0` and
 * a judge that never answers, the cases have checks pending: exit 1, `complete: false`, the judge's
 * version in `deferredScorerVersionIds` (spec: exit codes, direct-case document). With time to
 * wait and a judge that answers, the cases are graded: PASS and FAIL with the judge's metric and
 * explanation.
 */
import type { ScorerDefinition } from '@svc-run/sdk/evals';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { documentOf } from '../../testing/eval-document-schema.js';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
  writeEvalEnvFile,
} from '../../testing/eval-service.js';
import { runBuiltCli } from '../../testing/spawn-built-cli.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A judge model that never answers: only a cancellation or the server's close ends its calls. */
const silent = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'silent',
  doGenerate: (options) =>
    new Promise((_resolve, reject) => {
      options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason));
    }),
});

/** A judge model that calls an answer polite when it holds "please". */
const polite = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'polite',
  doGenerate: async (options) => {
    const said = JSON.stringify(options.prompt).includes('please');
    return {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            explanation: said ? 'It says please.' : 'It never says please.',
            metrics: { polite: said },
          }),
        },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  },
});

const service = useEvalService({
  judgeModel: (reference) => (reference.model === 'silent' ? silent : polite),
});

function judge(model: string): ScorerDefinition {
  return {
    kind: 'llm_judge',
    metrics: [{ name: 'polite', type: 'boolean' }],
    config: {
      provider: 'mock',
      model,
      rubric: 'Is the answer polite?',
      bindings: [{ name: 'answer', path: '/output/text', required: true }],
      maxOutputTokens: 100,
      // The longest the definition allows: a loaded machine must not turn a grade into a timeout.
      timeoutMs: 600_000,
    },
  };
}

async function runWith(model: string, cases: { key: string; answer: string }[], ...more: string[]) {
  const set = await createEvalSet(
    service.client,
    'judged',
    cases.map(({ key, answer }) => ({ externalKey: key, inputs: { answer } })),
  );
  const scorer = await createScorer(service.client, 'judge', judge(model));
  const cwd = await service.directory('judge');
  const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
  const end = await runBuiltCli(
    [
      'eval',
      ...['--set', set.slug, '--scorer', scorer.slug, '--command', TEST_AGENT_COMMAND],
      ...['--env-file', envFile, '--json', '--content', ...more],
    ],
    cwd,
  );
  return { end, scorer };
}

describe('svc eval --set with a hosted judge', () => {
  it('reports checks pending with --wait 0: exit 1, complete false, the judge deferred', async () => {
    const { end, scorer } = await runWith('silent', [{ key: 'one', answer: 'Yes, please.' }], '--wait', '0');
    expect(end.code).toBe(1);
    const document = documentOf(end.stdout);
    expect(document).toMatchObject({
      complete: false,
      deferredScorerVersionIds: [scorer.versionId],
      totals: { cases: 1, passed: 0, failed: 0, errored: 0, pending: 1 },
    });
    expect(document.cases[0]).toMatchObject({
      state: 'PENDING',
      scores: [{ scorer: scorer.slug, scorerVersionId: scorer.versionId, status: 'pending' }],
    });
    expect(end.stderr).toMatch(new RegExp(`^one +PENDING +checks pending: ${scorer.slug}$`, 'm'));
    expect(end.stderr).toContain('(grading not complete: checks pending)');
  });

  it('waits for grading and reports the judge metric of each case', async () => {
    const { end, scorer } = await runWith('polite', [
      { key: 'kind', answer: 'Yes, please.' },
      { key: 'curt', answer: 'No.' },
    ]);
    expect(end.code).toBe(1);
    const document = documentOf(end.stdout);
    expect(document).toMatchObject({
      complete: true,
      deferredScorerVersionIds: [scorer.versionId],
      totals: { cases: 2, passed: 1, failed: 1, errored: 0, pending: 0 },
    });
    expect(document.cases.map((item) => [item.externalKey, item.state])).toEqual([
      ['kind', 'PASS'],
      ['curt', 'FAIL'],
    ]);
    expect(document.cases[1]?.failures).toEqual([
      { scorer: scorer.slug, metric: 'polite', explanation: 'It never says please.' },
    ]);
    expect(end.stderr).toMatch(
      new RegExp(`^curt +FAIL +${scorer.slug}/polite: It never says please\\.$`, 'm'),
    );
  });

  it('refuses an llm_judge scorer without --content (the judge reads the output the service keeps)', async () => {
    const set = await createEvalSet(service.client, 'judged', [{ externalKey: 'one', inputs: {} }]);
    const scorer = await createScorer(service.client, 'judge', judge('polite'));
    const cwd = await service.directory('judge');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const end = await runBuiltCli(
      ['eval', '--set', set.slug, '--scorer', scorer.slug, '--command', 'true', '--env-file', envFile],
      cwd,
    );
    expect(end.code).toBe(2);
    expect(end.stderr).toContain('which it keeps only with --content. Add --content.');
  });
});
