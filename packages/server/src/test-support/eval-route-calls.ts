/**
 * For the auth matrix: a request to every key-authenticated route of the evaluation registry that
 * succeeds, with the success each must answer (status and shape), given a key allowed to make it.
 * The records a request needs first (a dataset, a started execution, a claimed one…) are made with
 * the Read-and-write key (or the machine credential), so only the request under test carries the
 * key under test. Not part of the package's public API.
 * @module
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@svc-run/test-support';
import { expect } from 'vitest';
import { type EvalAnswer, evalRequests, uniqueSlug } from '../evals/test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../evals/test-support/eval-setup.js';
import type { RouteId } from '../route-table.js';
import { blobsAttribute, entryOf, ingest, upload } from './media-fixtures.js';
import { jsonSpan, newTraceId, tracesRequest } from './otlp-fixtures.js';
import type { ServerFixture } from './server-fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A registry ID, as every answer names records. */
export const anId = expect.stringMatching(UUID);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** One request: its answer, and the success it must be when its key is allowed. */
export interface EvalRouteCall {
  answer: EvalAnswer;
  /** The body of a success (`toMatchObject`); the status of a success is 200. */
  success: Record<string, unknown>;
}

/** An `llm_judge` scorer definition (its model answers only when cancelled: jobs stay running). */
const JUDGE = {
  kind: 'llm_judge',
  metrics: [{ name: 'polite', type: 'boolean' }],
  config: {
    model: 'judge-1',
    provider: 'mock',
    rubric: 'Is the reply polite?',
    bindings: [{ name: 'reply', path: '/output', required: true }],
    maxOutputTokens: 100,
    timeoutMs: 600_000,
  },
};

/** A managed target stand-in on 127.0.0.1: answers every delivery as the SDK's handler would. */
export async function managedTargetStandIn(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { executionId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { executionId: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          executionId,
          state: 'succeeded',
          outcomeSaved: true,
          outputFiles: 0,
          telemetryFlushed: true,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/managed`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The calls, by route. `targetUrl` is a managed target the server may deliver to (started with
 * `allowPrivateTargets`); the server needs a judge model whose calls never end on their own.
 */
export function evalRouteCalls(fx: ServerFixture, targetUrl: () => string) {
  const api = evalRequests(fx);
  const machine = () => ({ key: fx.server.keys.machine });
  const ok = async <T>(answer: Promise<EvalAnswer<T>>): Promise<T> => {
    const read = await answer;
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return read.body;
  };

  const dataset = async () =>
    (await ok(api.post<{ id: string }>('/datasets', { name: 'Set', slug: uniqueSlug('set') }))).id;
  const openVersion = async () =>
    ok(api.post<{ id: string; revision: number }>(`/datasets/${await dataset()}/versions`, {}));
  const scorer = async () =>
    (await ok(api.post<{ id: string }>('/scorers', { name: 'Scorer', slug: uniqueSlug('scorer') }))).id;
  const exactMatch = () => scorerVersion(api, { kind: 'builtin', builtin: 'exact_match' });
  const anExperiment = async (scorerVersionIds: string[] = []) => {
    const { versionId, caseIds } = await datasetVersion(api, [{ externalKey: 'one', inputs: { n: 1 } }]);
    return { ...(await experiment(api, versionId, scorerVersionIds)), caseId: caseIds[0]! };
  };
  const started = async (body: Record<string, unknown> = {}, scorerVersionIds: string[] = []) => {
    const created = await anExperiment(scorerVersionIds);
    const execution = await ok(
      api.post<{ id: string }>(`/experiments/${created.id}/cases/${created.caseId}/executions`, body),
    );
    return { ...created, executionId: execution.id };
  };
  const completed = async (scorerVersionIds: string[] = []) => {
    const execution = await started({}, scorerVersionIds);
    const done = await ok(
      api.post<{ subjectId: string; evaluationItemId: string }>(
        `/executions/${execution.executionId}/complete`,
        {
          state: 'succeeded',
          output: 'a reply',
        },
      ),
    );
    return { ...execution, ...done };
  };
  const caseWithFile = async () => {
    const version = await openVersion();
    const bytes = new TextEncoder().encode(`a case file ${uniqueSlug('x')}`);
    const written = await ok(
      api.post<{ item: { id: string } }>(`/dataset-versions/${version.id}/cases`, {
        expectedRevision: version.revision,
        externalKey: 'with-file',
        inputs: {},
        files: [
          {
            role: 'source',
            name: 'doc.txt',
            contentType: 'text/plain',
            data: Buffer.from(bytes).toString('base64'),
          },
        ],
      }),
    );
    return { caseId: written.item.id, sha256: sha256(bytes) };
  };
  /** An execution completed with trace evidence over a trace whose span lists an uploaded file. */
  const snapshot = async () => {
    const traceId = newTraceId();
    const bytes = new TextEncoder().encode(`a traced file ${uniqueSlug('x')}`);
    await upload(fx.server, traceId, bytes);
    await ingest(
      fx.server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, { attributes: [blobsAttribute([entryOf(bytes, { name: 'chart.png' })])] }),
      ]),
    );
    const execution = await started({ traceExternalId: traceId });
    const done = await ok(
      api.post<{ traceSnapshotId: string }>(`/executions/${execution.executionId}/complete`, {
        state: 'succeeded',
        traceEvidence: 'required',
      }),
    );
    return { snapshotId: done.traceSnapshotId, sha256: sha256(bytes) };
  };
  const judgedItem = async () => {
    const judge = await scorerVersion(api, JUDGE);
    const run = await completed([judge]);
    return { runId: run.evaluationRunId, evaluationItemId: run.evaluationItemId, judge };
  };
  const judgeJob = async () => {
    const item = await judgedItem();
    const created = await ok(
      api.post<{ ids: string[] }>(`/runs/${item.runId}/judge-jobs`, {
        jobs: [{ evaluationItemId: item.evaluationItemId, scorerVersionId: item.judge }],
      }),
    );
    return { ...item, jobId: created.ids[0]! };
  };
  const target = async () =>
    (await ok(api.post<{ id: string }>('/managed-targets', { name: 'App', url: targetUrl() }))).id;
  const dispatched = async () => {
    const created = await anExperiment();
    const targetId = await target();
    const answer = await ok(
      api.post<{ dispatch: { id: string }; execution: { id: string } }>(
        `/experiments/${created.id}/cases/${created.caseId}/dispatch`,
        { targetId },
      ),
    );
    await waitUntil(
      async () =>
        (await api.get<{ state: string }>(`/dispatches/${answer.dispatch.id}`)).body.state !== 'delivering',
      'the dispatch to be delivered',
      10,
    );
    return { targetId, dispatchId: answer.dispatch.id, executionId: answer.execution.id };
  };
  const claimed = async () => {
    const execution = await dispatched();
    const claim = await ok(
      api.post<{ claimId: string }>(`/executions/${execution.executionId}/claim`, {}, machine()),
    );
    return { ...execution, claimId: claim.claimId };
  };

  const page = { items: expect.any(Array), nextCursor: null };
  type Call = (key: string) => Promise<EvalRouteCall>;
  const calls: Partial<Record<RouteId, Call>> = {
    'evals.datasets.create': async (key) => ({
      answer: await api.post('/datasets', { name: 'Set', slug: uniqueSlug('set') }, { key }),
      success: { id: anId, name: 'Set', latestVersionId: null, versionCount: 0 },
    }),
    'evals.datasets.list': async (key) => {
      await dataset();
      await dataset();
      return {
        answer: await api.get('/datasets?limit=1', { key }),
        success: { items: [expect.objectContaining({ id: anId })], nextCursor: expect.any(String) },
      };
    },
    'evals.datasets.get': async (key) => {
      const id = await dataset();
      return { answer: await api.get(`/datasets/${id}`, { key }), success: { id, versionCount: 0 } };
    },
    'evals.datasetVersions.create': async (key) => {
      const id = await dataset();
      return {
        answer: await api.post(`/datasets/${id}/versions`, {}, { key }),
        success: { id: anId, datasetId: id, number: 1, frozen: false, caseCount: 0 },
      };
    },
    'evals.datasetVersions.list': async (key) => {
      const id = await dataset();
      const first = await ok(api.post<{ id: string }>(`/datasets/${id}/versions`, {}));
      return {
        answer: await api.get(`/datasets/${id}/versions`, { key }),
        success: {
          items: [expect.objectContaining({ id: first.id, datasetId: id, number: 1 })],
          nextCursor: null,
        },
      };
    },
    'evals.datasetVersions.get': async (key) => {
      const { id } = await openVersion();
      return { answer: await api.get(`/dataset-versions/${id}`, { key }), success: { id, number: 1 } };
    },
    'evals.datasetVersions.freeze': async (key) => {
      const { id, revision } = await openVersion();
      return {
        answer: await api.post(`/dataset-versions/${id}/freeze`, { expectedRevision: revision }, { key }),
        success: { id, frozen: true, frozenAt: expect.any(String) },
      };
    },
    'evals.cases.list': async (key) => {
      const { versionId, caseIds } = await datasetVersion(api, [{ externalKey: 'one', inputs: 1 }]);
      return {
        answer: await api.get(`/dataset-versions/${versionId}/cases`, { key }),
        success: {
          items: [expect.objectContaining({ id: caseIds[0], externalKey: 'one' })],
          nextCursor: null,
        },
      };
    },
    'evals.cases.add': async (key) => {
      const { id, revision } = await openVersion();
      return {
        answer: await api.post(
          `/dataset-versions/${id}/cases`,
          { expectedRevision: revision, externalKey: 'k', inputs: { q: 1 } },
          { key },
        ),
        success: {
          item: { id: anId, kind: 'case', externalKey: 'k' },
          version: { id, revision: revision + 1 },
        },
      };
    },
    'evals.cases.addEvalSet': async (key) => {
      const { id, revision } = await openVersion();
      const data = Buffer.from('a source document').toString('base64');
      return {
        answer: await api.post(
          `/dataset-versions/${id}/eval-set-cases`,
          {
            expectedRevision: revision,
            externalKey: 'doc',
            files: [{ role: 'source', name: 'doc.txt', contentType: 'text/plain', data }],
          },
          { key },
        ),
        success: { item: { id: anId, kind: 'eval_set', externalKey: 'doc' }, version: { id } },
      };
    },
    'evals.artifacts.create': async (key) => {
      const bytes = new TextEncoder().encode(`an artifact ${uniqueSlug('x')}`);
      return {
        answer: await api.post(
          '/artifacts',
          { sha256: sha256(bytes), size: bytes.length, contentType: 'text/plain', name: 'a.txt' },
          { key },
        ),
        success: {
          artifact: { id: anId, state: 'pending' },
          upload: { method: 'PUT', url: expect.any(String) },
        },
      };
    },
    'evals.caseFiles.link': async (key) => {
      const file = await caseWithFile();
      return {
        answer: await api.get(`/cases/${file.caseId}/files/${file.sha256}`, { key }),
        success: { url: expect.any(String), name: 'doc.txt', sha256: file.sha256 },
      };
    },
    'evals.scorers.create': async (key) => ({
      answer: await api.post('/scorers', { name: 'Scorer', slug: uniqueSlug('scorer') }, { key }),
      success: { id: anId, name: 'Scorer', latestVersionId: null, versionCount: 0 },
    }),
    'evals.scorers.list': async (key) => {
      await scorer();
      return {
        answer: await api.get('/scorers?limit=1', { key }),
        success: { items: [expect.objectContaining({ id: anId })] },
      };
    },
    'evals.scorers.get': async (key) => {
      const id = await scorer();
      return { answer: await api.get(`/scorers/${id}`, { key }), success: { id } };
    },
    'evals.scorerVersions.publish': async (key) => {
      const id = await scorer();
      return {
        answer: await api.post(
          `/scorers/${id}/versions`,
          { kind: 'builtin', builtin: 'exact_match' },
          { key },
        ),
        success: {
          id: anId,
          scorerId: id,
          number: 1,
          definition: expect.objectContaining({ kind: 'builtin' }),
        },
      };
    },
    'evals.scorerVersions.get': async (key) => {
      const id = await exactMatch();
      return { answer: await api.get(`/scorer-versions/${id}`, { key }), success: { id, number: 1 } };
    },
    'evals.experiments.create': async (key) => {
      const { versionId } = await datasetVersion(api, [{ externalKey: 'one', inputs: 1 }]);
      return {
        answer: await api.post(
          '/experiments',
          { name: 'E', datasetVersionId: versionId, scorerVersionIds: [] },
          { key },
        ),
        success: { id: anId, evaluationRunId: anId },
      };
    },
    'evals.experiments.get': async (key) => {
      const { id, evaluationRunId } = await anExperiment();
      return {
        answer: await api.get(`/experiments/${id}`, { key }),
        success: { id, evaluationRunId, caseCount: 1, finishedAt: null },
      };
    },
    'evals.experiments.items': async (key) => {
      const { id, caseId } = await anExperiment();
      return {
        answer: await api.get(`/experiments/${id}/items`, { key }),
        success: { items: [expect.objectContaining({ caseId, latestExecution: null })], nextCursor: null },
      };
    },
    'evals.experiments.case': async (key) => {
      const { id, caseId } = await anExperiment();
      return {
        answer: await api.get(`/experiments/${id}/cases/${caseId}`, { key }),
        success: {
          experimentId: id,
          case: expect.objectContaining({ id: caseId }),
          executions: [],
          results: [],
        },
      };
    },
    'evals.experiments.finish': async (key) => {
      const { id } = await anExperiment();
      return {
        answer: await api.post(`/experiments/${id}/finish`, {}, { key }),
        success: { id, finishedAt: expect.any(String) },
      };
    },
    'evals.executions.start': async (key) => {
      const { id, caseId } = await anExperiment();
      return {
        answer: await api.post(`/experiments/${id}/cases/${caseId}/executions`, {}, { key }),
        success: { id: anId, experimentId: id, caseId, attempt: 1, state: 'started' },
      };
    },
    'evals.executions.get': async (key) => {
      const { executionId } = await started();
      return {
        answer: await api.get(`/executions/${executionId}`, { key }),
        success: { id: executionId, state: 'started' },
      };
    },
    'evals.executions.complete': async (key) => {
      const { executionId } = await started();
      return {
        answer: await api.post(
          `/executions/${executionId}/complete`,
          { state: 'succeeded', output: 'x' },
          { key },
        ),
        success: { executionId, subjectId: anId, evaluationItemId: anId, traceSnapshotId: null },
      };
    },
    'evals.traceSnapshots.get': async (key) => {
      const { snapshotId } = await snapshot();
      return {
        answer: await api.get(`/trace-snapshots/${snapshotId}`, { key }),
        success: { id: snapshotId },
      };
    },
    'evals.traceSnapshots.blob': async (key) => {
      const file = await snapshot();
      return {
        answer: await api.get(`/trace-snapshots/${file.snapshotId}/blobs/${file.sha256}`, { key }),
        success: { url: expect.any(String), sha256: file.sha256, name: 'chart.png' },
      };
    },
    'evals.runs.create': async (key) => {
      const { subjectId } = await completed();
      const version = await exactMatch();
      return {
        answer: await api.post(
          '/runs',
          { name: 'Run', subjectIds: [subjectId], scorerVersionIds: [version] },
          { key },
        ),
        success: { id: anId },
      };
    },
    'evals.runs.get': async (key) => {
      const { evaluationRunId, id } = await completed();
      return {
        answer: await api.get(`/runs/${evaluationRunId}`, { key }),
        success: { id: evaluationRunId, experimentId: id, itemCount: 1 },
      };
    },
    'evals.runs.items': async (key) => {
      const { evaluationRunId, evaluationItemId } = await completed();
      return {
        answer: await api.get(`/runs/${evaluationRunId}/items`, { key }),
        success: {
          items: [expect.objectContaining({ id: evaluationItemId, runId: evaluationRunId })],
          nextCursor: null,
        },
      };
    },
    'evals.subjects.get': async (key) => {
      const { subjectId, executionId } = await completed();
      return {
        answer: await api.get(`/subjects/${subjectId}`, { key }),
        success: { id: subjectId, executionId, executionState: 'succeeded', output: 'a reply' },
      };
    },
    'evals.results.submit': async (key) => {
      const version = await exactMatch();
      const { evaluationRunId, evaluationItemId } = await completed([version]);
      return {
        answer: await api.post(
          `/runs/${evaluationRunId}/results`,
          {
            results: [
              {
                evaluationItemId,
                scorerVersionId: version,
                status: 'scored',
                metrics: [{ name: 'exact_match', value: true, passed: true }],
                explanation: 'Output equals expected.',
              },
            ],
          },
          { key },
        ),
        success: { ids: [anId] },
      };
    },
    'evals.results.list': async (key) => {
      const { evaluationRunId } = await completed();
      return { answer: await api.get(`/runs/${evaluationRunId}/results`, { key }), success: page };
    },
    'evals.results.get': async (key) => {
      const version = await exactMatch();
      const { evaluationRunId, evaluationItemId } = await completed([version]);
      const submitted = await ok(
        api.post<{ ids: string[] }>(`/runs/${evaluationRunId}/results`, {
          results: [
            { evaluationItemId, scorerVersionId: version, status: 'skipped', explanation: 'No output.' },
          ],
        }),
      );
      return {
        answer: await api.get(`/results/${submitted.ids[0]}`, { key }),
        success: { id: submitted.ids[0], evaluationItemId, status: 'skipped', judgeJobId: null },
      };
    },
    'evals.judge.budget': async (key) => ({
      answer: await api.get('/judge/budget', { key }),
      success: { jobLimit: expect.any(Number), jobsUsed: expect.any(Number), modelConfigured: true },
    }),
    'evals.judgeJobs.create': async (key) => {
      const item = await judgedItem();
      return {
        answer: await api.post(
          `/runs/${item.runId}/judge-jobs`,
          { jobs: [{ evaluationItemId: item.evaluationItemId, scorerVersionId: item.judge }] },
          { key },
        ),
        success: { ids: [anId] },
      };
    },
    'evals.judgeJobs.list': async (key) => {
      const job = await judgeJob();
      return {
        answer: await api.get(`/runs/${job.runId}/judge-jobs`, { key }),
        success: { items: [expect.objectContaining({ id: job.jobId, runId: job.runId })], nextCursor: null },
      };
    },
    'evals.judgeJobs.get': async (key) => {
      const job = await judgeJob();
      return {
        answer: await api.get(`/judge-jobs/${job.jobId}`, { key }),
        success: { id: job.jobId, runId: job.runId, evaluationItemId: job.evaluationItemId },
      };
    },
    'evals.judgeJobs.cancel': async (key) => {
      const job = await judgeJob();
      return {
        answer: await api.post(`/judge-jobs/${job.jobId}/cancel`, { reason: 'not needed' }, { key }),
        success: { id: job.jobId, state: 'cancelled', cancelReason: 'not needed' },
      };
    },
    'evals.managedTargets.create': async (key) => ({
      answer: await api.post('/managed-targets', { name: 'App', url: targetUrl() }, { key }),
      success: { id: anId, name: 'App', url: targetUrl() },
    }),
    'evals.managedTargets.get': async (key) => {
      const id = await target();
      return { answer: await api.get(`/managed-targets/${id}`, { key }), success: { id, url: targetUrl() } };
    },
    'evals.executions.dispatch': async (key) => {
      const { id, caseId } = await anExperiment();
      const targetId = await target();
      return {
        answer: await api.post(`/experiments/${id}/cases/${caseId}/dispatch`, { targetId }, { key }),
        success: { dispatch: { id: anId, targetId }, execution: { id: anId, state: 'started', attempt: 1 } },
      };
    },
    'evals.dispatches.get': async (key) => {
      const execution = await dispatched();
      return {
        answer: await api.get(`/dispatches/${execution.dispatchId}`, { key }),
        success: {
          id: execution.dispatchId,
          targetId: execution.targetId,
          executionId: execution.executionId,
        },
      };
    },
    'evals.executions.managed': async (key) => {
      const execution = await dispatched();
      return {
        answer: await api.get(`/executions/${execution.executionId}/managed`, { key }),
        success: {
          executionId: execution.executionId,
          dispatchId: execution.dispatchId,
          targetId: execution.targetId,
        },
      };
    },
    'evals.executions.claim': async (key) => {
      const { executionId } = await dispatched();
      return {
        answer: await api.post(`/executions/${executionId}/claim`, {}, { key }),
        success: { claimId: anId, executionId, attempt: 1, inputs: { n: 1 } },
      };
    },
    'evals.executions.outputFiles': async (key) => {
      const { executionId, claimId } = await claimed();
      const bytes = new TextEncoder().encode('a generated report');
      return {
        answer: await api.post(
          `/executions/${executionId}/output-files`,
          {
            claimId,
            sha256: sha256(bytes),
            size: bytes.length,
            contentType: 'text/plain',
            name: 'report.txt',
          },
          { key },
        ),
        success: { artifact: { id: anId, state: 'pending' }, upload: { method: 'PUT' } },
      };
    },
    'evals.executions.outcome': async (key) => {
      const { executionId, claimId } = await claimed();
      return {
        answer: await api.post(
          `/executions/${executionId}/outcome`,
          { claimId, state: 'succeeded', output: { answer: 42 } },
          { key },
        ),
        success: { executionId, evaluationItemId: anId, outputFiles: [] },
      };
    },
  };
  return calls;
}
