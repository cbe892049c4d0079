import { describe, expect, it } from 'vitest';
import { jsonSpan, newTraceId, tracesRequest } from '../../test-support/otlp-fixtures.js';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID } from '../test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../test-support/eval-setup.js';

const fx = useServer();
const api = evalRequests(fx);

interface Execution {
  id: string;
  attempt: number;
  state: string;
  output?: unknown;
  replacedByExecutionId: string | null;
  previousExecutionId: string | null;
  traceSnapshotId: string | null;
  subjectId: string | null;
  evaluationItemId: string | null;
}
interface Completion {
  executionId: string;
  subjectId: string;
  traceSnapshotId: string | null;
  evaluationItemId: string;
}

const CASES = [
  { externalKey: 'one', inputs: { q: 1 }, expected: 'A' },
  { externalKey: 'two', inputs: { q: 2 } },
  { externalKey: 'three', inputs: { q: 3 }, expected: null },
];

async function setup() {
  const { versionId, caseIds } = await datasetVersion(api, CASES);
  const scorer = await scorerVersion(api, { kind: 'builtin', builtin: 'exact_match' });
  const created = await experiment(api, versionId, [scorer], { temperature: 0 });
  return { versionId, caseIds, scorer, ...created };
}

async function start(experimentId: string, caseId: string, body: Record<string, unknown> = {}) {
  return api.post<Execution & ErrorBody>(`/experiments/${experimentId}/cases/${caseId}/executions`, body);
}

async function complete(executionId: string, body: Record<string, unknown>, idempotencyKey?: string) {
  return api.post<Completion & ErrorBody>(
    `/executions/${executionId}/complete`,
    body,
    idempotencyKey ? { idempotencyKey } : {},
  );
}

describe('experiments', () => {
  it('creates an experiment with its evaluation run on a frozen version', async () => {
    const { id, evaluationRunId, versionId, scorer } = await setup();
    const read = await api.get(`/experiments/${id}`, { key: fx.server.keys.read });
    expect(read.body).toMatchObject({
      id,
      evaluationRunId,
      datasetVersionId: versionId,
      scorerVersionIds: [scorer],
      config: { temperature: 0 },
      caseCount: 3,
      finishedAt: null,
    });
  });

  it('refuses an unfrozen version, unknown IDs and repeated scorer versions', async () => {
    const unfrozen = await datasetVersion(api, CASES.slice(0, 1), false);
    const notFrozen = await api.post<ErrorBody>('/experiments', {
      name: 'x',
      datasetVersionId: unfrozen.versionId,
      scorerVersionIds: [],
    });
    expect(notFrozen.status).toBe(409);
    expect(notFrozen.body.error.message).toContain('freeze');
    const frozen = await datasetVersion(api, CASES.slice(0, 1));
    expect(
      (await api.post('/experiments', { name: 'x', datasetVersionId: UNKNOWN_ID, scorerVersionIds: [] }))
        .status,
    ).toBe(404);
    const unknownScorer = await api.post<ErrorBody>('/experiments', {
      name: 'x',
      datasetVersionId: frozen.versionId,
      scorerVersionIds: [UNKNOWN_ID],
    });
    expect(unknownScorer.status).toBe(404);
    expect(unknownScorer.body.error.message).toContain('scorerVersionIds[0]');
    const scorer = await scorerVersion(api, { kind: 'builtin', builtin: 'exact_match' });
    const repeated = await api.post<ErrorBody>('/experiments', {
      name: 'x',
      datasetVersionId: frozen.versionId,
      scorerVersionIds: [scorer, scorer],
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body.error.message).toContain('scorerVersionIds');
  });

  it('lists items: the cases in order with their latest execution', async () => {
    const { id, caseIds } = await setup();
    const first = await api.get<{
      items: { caseId: string; externalKey: string; latestExecution: unknown; expected?: unknown }[];
      nextCursor: string | null;
    }>(`/experiments/${id}/items?limit=2`);
    expect(first.body.items.map((item) => item.caseId)).toEqual(caseIds.slice(0, 2));
    expect(first.body.items[0]).toMatchObject({
      externalKey: 'one',
      inputs: { q: 1 },
      expected: 'A',
      latestExecution: null,
    });
    expect('expected' in first.body.items[1]!).toBe(false);
    const second = await api.get<{ items: { caseId: string }[]; nextCursor: string | null }>(
      `/experiments/${id}/items?limit=2&after=${encodeURIComponent(first.body.nextCursor!)}`,
    );
    expect(second.body.items.map((item) => item.caseId)).toEqual([caseIds[2]]);
    expect(second.body.nextCursor).toBeNull();
  });
});

describe('executions', () => {
  it('runs a case to completion and shows it in the items and the case view', async () => {
    const { id, caseIds } = await setup();
    const started = await start(id, caseIds[0]!);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      attempt: 1,
      state: 'started',
      subjectId: null,
      previousExecutionId: null,
    });
    const done = await complete(started.body.id, {
      state: 'succeeded',
      output: 'A',
      traceEvidence: 'omit',
      omissionReason: 'unit test',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ executionId: started.body.id, traceSnapshotId: null });
    expect(done.body.subjectId).toMatch(/^[0-9a-f-]{36}$/);
    const execution = await api.get<Execution>(`/executions/${started.body.id}`);
    expect(execution.body).toMatchObject({
      state: 'succeeded',
      output: 'A',
      subjectId: done.body.subjectId,
      evaluationItemId: done.body.evaluationItemId,
    });
    const items = await api.get<{ items: { latestExecution: Execution | null }[] }>(
      `/experiments/${id}/items`,
    );
    expect(items.body.items[0]!.latestExecution?.id).toBe(started.body.id);
    const view = await api.get<{ case: { id: string }; executions: Execution[] }>(
      `/experiments/${id}/cases/${caseIds[0]}`,
    );
    expect(view.body.case.id).toBe(caseIds[0]);
    expect(view.body.executions.map((e) => e.id)).toEqual([started.body.id]);
  });

  it('keeps an omitted output apart from a null output', async () => {
    const { id, caseIds } = await setup();
    const a = await start(id, caseIds[0]!);
    await complete(a.body.id, { state: 'succeeded' });
    const b = await start(id, caseIds[1]!);
    await complete(b.body.id, { state: 'succeeded', output: null });
    expect('output' in (await api.get(`/executions/${a.body.id}`)).body).toBe(false);
    expect((await api.get(`/executions/${b.body.id}`)).body.output).toBeNull();
  });

  it('replaces a still-started attempt only via previousExecutionId and allowUncertainRetry: true', async () => {
    const { id, caseIds } = await setup();
    const first = await start(id, caseIds[0]!);
    const again = await start(id, caseIds[0]!);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('still started');
    const withoutFlag = await start(id, caseIds[0]!, { previousExecutionId: first.body.id });
    expect(withoutFlag.status).toBe(409);
    expect(withoutFlag.body.error.message).toContain('allowUncertainRetry');
    const flagOnly = await start(id, caseIds[0]!, { allowUncertainRetry: true });
    expect(flagOnly.status).toBe(422); // a rule JSON Schema cannot state
    expect(flagOnly.body.error.message).toContain('previousExecutionId');
    const wrongPrevious = await start(id, caseIds[0]!, {
      previousExecutionId: UNKNOWN_ID,
      allowUncertainRetry: true,
    });
    expect(wrongPrevious.status).toBe(409);
    const second = await start(id, caseIds[0]!, {
      previousExecutionId: first.body.id,
      allowUncertainRetry: true,
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ attempt: 2, previousExecutionId: first.body.id });
    expect((await api.get(`/executions/${first.body.id}`)).body.replacedByExecutionId).toBe(second.body.id);
    const late = await complete(first.body.id, { state: 'succeeded', output: 'late' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain('replaced');
  });

  it('runs a completed case again only with previousExecutionId', async () => {
    const { id, caseIds } = await setup();
    const first = await start(id, caseIds[1]!);
    await complete(first.body.id, { state: 'error', error: { type: 'TimeoutError', message: 'slow' } });
    const again = await start(id, caseIds[1]!);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('previousExecutionId');
    const retry = await start(id, caseIds[1]!, { previousExecutionId: first.body.id });
    expect(retry.body).toMatchObject({ attempt: 2, state: 'started' });
    const noPrevious = await start(id, caseIds[2]!, { previousExecutionId: first.body.id });
    expect(noPrevious.status).toBe(409);
  });

  it.each([
    // 400: breaks the document's schema; 422: a rule between fields, which JSON Schema cannot state.
    [{ state: 'done' }, 'state', 400],
    [{ state: 'error' }, 'error', 422],
    [{ state: 'succeeded', error: { type: 'X' } }, 'error', 422],
    [{ state: 'cancelled', error: { message: 'no type' } }, 'error.type', 400],
    [{ state: 'succeeded', traceEvidence: 'omit' }, 'omissionReason', 422],
    [{ state: 'succeeded', traceEvidence: 'omit', omissionReason: '   ' }, 'omissionReason', 400],
    [{ state: 'succeeded', omissionReason: 'why' }, 'omissionReason', 422],
    [{ state: 'succeeded', traceEvidence: 'sometimes' }, 'traceEvidence', 400],
    [{ state: 'succeeded', expectedTraceRevision: 2 }, 'expectedTraceRevision', 422],
    [
      { state: 'succeeded', traceEvidence: 'required', expectedTraceRevision: 0 },
      'expectedTraceRevision',
      400,
    ],
  ])('refuses the completion %j, naming %s (%i)', async (body, field, status) => {
    const { id, caseIds } = await setup();
    const started = await start(id, caseIds[0]!);
    const res = await complete(started.body.id, body);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(field);
    expect((await api.get(`/executions/${started.body.id}`)).body.state).toBe('started');
  });

  it('refuses a second completion; a replay with the same key returns the first answer', async () => {
    const { id, caseIds } = await setup();
    const started = await start(id, caseIds[0]!);
    const body = { state: 'cancelled' };
    const first = await complete(started.body.id, body, `complete-${started.body.id}`);
    const replay = await complete(started.body.id, body, `complete-${started.body.id}`);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const second = await complete(started.body.id, { state: 'succeeded' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('conflict');
    const otherBody = await complete(started.body.id, { state: 'succeeded' }, `complete-${started.body.id}`);
    expect(otherBody.body.error.code).toBe('idempotency_key_reused');
  });

  it('snapshots the stored trace with traceEvidence: required', async () => {
    const { id, caseIds } = await setup();
    const traceId = newTraceId();
    const started = await start(id, caseIds[0]!, { traceExternalId: traceId });
    const early = await complete(started.body.id, {
      state: 'succeeded',
      output: 'A',
      traceEvidence: 'required',
    });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain('flush');
    expect(
      (await fx.postJson('/api/v1/otlp/v1/traces', tracesRequest([jsonSpan(traceId, { name: 'case' })])))
        .status,
    ).toBe(200);
    const ahead = await complete(started.body.id, {
      state: 'succeeded',
      output: 'A',
      traceEvidence: 'required',
      expectedTraceRevision: 2,
    });
    expect(ahead.status).toBe(409);
    expect(ahead.body.error.message).toContain('revision 1');
    const done = await complete(started.body.id, {
      state: 'succeeded',
      output: 'A',
      traceEvidence: 'required',
      expectedTraceRevision: 1,
    });
    expect(done.status).toBe(200);
    expect(done.body.traceSnapshotId).toMatch(/^[0-9a-f-]{36}$/);
    await fx.postJson('/api/v1/otlp/v1/traces', tracesRequest([jsonSpan(traceId, { name: 'late' })]));
    const snapshot = await api.get<{
      traceId: string;
      revision: number;
      spanCount: number;
      spans: { name: string }[];
    }>(`/trace-snapshots/${done.body.traceSnapshotId}`);
    expect(snapshot.body).toMatchObject({ traceId, revision: 1, spanCount: 1 });
    expect(snapshot.body.spans.map((span) => span.name)).toEqual(['case']);
    expect(
      (await api.get(`/trace-snapshots/${done.body.traceSnapshotId}`, { key: fx.server.keys.read })).status,
    ).toBe(403);
  });

  it('needs traceExternalId at start for traceEvidence: required', async () => {
    const { id, caseIds } = await setup();
    const started = await start(id, caseIds[0]!);
    const res = await complete(started.body.id, { state: 'succeeded', traceEvidence: 'required' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('traceExternalId');
    const badTrace = await start(id, caseIds[1]!, { traceExternalId: '0'.repeat(32) });
    expect(badTrace.status).toBe(400);
    expect(badTrace.body.error.message).toContain('traceExternalId');
  });

  it('answers unknown experiments, cases and executions with 404', async () => {
    const { id } = await setup();
    const other = await datasetVersion(api, CASES.slice(0, 1));
    expect((await start(UNKNOWN_ID, other.caseIds[0]!)).status).toBe(404);
    expect((await start(id, other.caseIds[0]!)).status).toBe(404);
    expect((await complete(UNKNOWN_ID, { state: 'succeeded' })).status).toBe(404);
    expect((await api.get(`/executions/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api.get(`/experiments/${id}/cases/${other.caseIds[0]}`)).status).toBe(404);
    expect((await api.get(`/experiments/${UNKNOWN_ID}/items`)).status).toBe(404);
  });

  it('finishes an experiment, which then refuses executions and completions', async () => {
    const { id, caseIds } = await setup();
    const started = await start(id, caseIds[0]!);
    const finished = await api.post<{ id: string; finishedAt: string }>(`/experiments/${id}/finish`, {});
    expect(finished.status).toBe(200);
    expect(finished.body.id).toBe(id);
    expect(Number.isNaN(Date.parse(finished.body.finishedAt))).toBe(false);
    expect((await start(id, caseIds[1]!)).status).toBe(409);
    expect((await complete(started.body.id, { state: 'succeeded' })).status).toBe(409);
    expect((await api.post(`/experiments/${id}/finish`, {})).status).toBe(409);
    expect((await api.get(`/experiments/${id}`)).body.finishedAt).toBe(finished.body.finishedAt);
  });
});
