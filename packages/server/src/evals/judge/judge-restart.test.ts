import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../start-server.js';
import { evalRequests } from '../test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../test-support/eval-setup.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function model(answer: (signal: AbortSignal | undefined) => Promise<string>) {
  return new MockLanguageModelV4({
    doGenerate: async (options) => ({
      content: [{ type: 'text', text: await answer(options.abortSignal) }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-judge-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function requests(server: RunningServer) {
  return evalRequests({
    server,
    request: (path, init = {}) => {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
      return Promise.resolve(server.app.request(path, { ...rest, headers }));
    },
    postJson: () => Promise.reject(new Error('unused')),
    receipt: () => Promise.reject(new Error('unused')),
  });
}

describe('hosted judge across a restart', () => {
  it('requeues a job left running by a stopped server and finishes it after the restart', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = await startServer({
      dataDir,
      judgeModel: model(
        (signal) =>
          new Promise((_resolve, reject) => {
            started();
            signal?.addEventListener('abort', () => reject(signal.reason));
          }),
      ),
    });
    const api = requests(first);
    const { versionId, caseIds } = await datasetVersion(api, [{ externalKey: 'a', inputs: {} }]);
    const judge = await scorerVersion(api, {
      kind: 'llm_judge',
      metrics: [{ name: 'ok', type: 'boolean' }],
      config: {
        model: 'm',
        provider: 'p',
        rubric: 'Is it ok?',
        bindings: [{ name: 'reply', path: '/output', required: true }],
        maxOutputTokens: 10,
        timeoutMs: 60_000,
      },
    });
    const created = await experiment(api, versionId, [judge]);
    const execution = await api.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseIds[0]}/executions`,
      {},
    );
    const done = await api.post<{ evaluationItemId: string }>(`/executions/${execution.body.id}/complete`, {
      state: 'succeeded',
      output: 'fine',
    });
    const jobs = await api.post<{ ids: string[] }>(`/runs/${created.evaluationRunId}/judge-jobs`, {
      jobs: [{ evaluationItemId: done.body.evaluationItemId, scorerVersionId: judge }],
    });
    await running;
    expect((await api.get(`/judge-jobs/${jobs.body.ids[0]}`)).body.state).toBe('running');
    await first.close();

    const second = await startServer({
      dataDir,
      judgeModel: model(async () => JSON.stringify({ explanation: 'Fine.', metrics: { ok: true } })),
    });
    try {
      const again = requests(second);
      type Job = { state: string; resultId: string | null };
      const job = await waitUntil(
        async () => {
          const read = (await again.get<Job>(`/judge-jobs/${jobs.body.ids[0]}`)).body;
          return !['queued', 'running'].includes(read.state) && read;
        },
        'the judge job to settle after the restart',
        20,
      );
      expect(job.state).toBe('succeeded');
      expect((await again.get(`/results/${job.resultId}`)).body).toMatchObject({
        status: 'scored',
        metrics: [{ name: 'ok', value: true, passed: true }],
      });
    } finally {
      await second.close();
    }
  });

  it('refuses invalid judge options', async () => {
    await expect(startServer({ judgeJobLimit: -1 })).rejects.toThrow(
      /^judgeJobLimit must be an integer of at least 0; got -1/,
    );
    await expect(startServer({ judgeModel: 42 as never })).rejects.toThrow(
      /^judgeModel must be an AI SDK language model/,
    );
  });
});
