import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerFixture, useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID, uniqueSlug } from '../test-support/eval-requests.js';
import { datasetVersion, experiment } from '../test-support/eval-setup.js';
import { managedSigningKey, SIGNATURE_HEADER } from './managed-request-signature.js';

// The targets of these tests listen on 127.0.0.1: a server refuses such targets unless started to
// allow them (see managed-target-addresses.test.ts for the refusals).
const fx = useServer({ allowPrivateTargets: true });
const api = evalRequests(fx);
interface Dispatch {
  id: string;
  targetId: string;
  executionId: string;
  state: string;
  responseStatus: number | null;
  response: unknown;
  failure: string | null;
}
interface Dispatched {
  dispatch: Dispatch;
  execution: {
    id: string;
    state: string;
    attempt: number;
    traceExternalId: string | null;
    previousExecutionId: string | null;
  };
}
interface Claim {
  claimId: string;
  executionId: string;
  experimentId: string;
  caseId: string;
  attempt: number;
  traceId: string | null;
  inputs: unknown;
  config: Record<string, unknown>;
  files: Array<{
    role: string;
    name: string;
    sha256: string;
    size: number;
    url: string;
    contentType: string;
  }>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const SOURCE = new TextEncoder().encode('the source document (managed-marker)');
const REFERENCE = new TextEncoder().encode('the evaluator reference (managed-marker)');

/** A node:http stand-in for a managed target: records each request and answers `answer(body)`. */
interface RecordedTarget {
  url: string;
  requests: Array<{ headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** What the stand-in answers: a status, headers and a JSON body. */
interface TargetAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** The managed handler's summary (`@svc-run/sdk/managed`) for the execution `request` names. */
function handlerSummary(requestBody: string): TargetAnswer {
  const { executionId } = JSON.parse(requestBody) as { executionId: string };
  return {
    status: 200,
    body: { executionId, state: 'succeeded', outcomeSaved: true, outputFiles: 0, telemetryFlushed: true },
  };
}

async function recordedTarget(
  answer: (requestBody: string) => TargetAnswer = handlerSummary,
): Promise<RecordedTarget> {
  const requests: RecordedTarget['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ headers: req.headers, body });
      const { status, headers = {}, body: answerBody } = answer(body);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(answerBody));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/managed`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let target: RecordedTarget;
beforeAll(async () => {
  target = await recordedTarget();
});
afterAll(async () => {
  await target.close();
});

const machine = () => ({ key: fx.server.keys.machine });

async function waitForDelivery(dispatchId: string): Promise<Dispatch> {
  return waitUntil(
    async () => {
      const read = await api.get<Dispatch>(`/dispatches/${dispatchId}`);
      return read.body.state !== 'delivering' && read.body;
    },
    'the dispatch to be delivered',
    10,
  );
}

async function registerTarget(url = target.url): Promise<string> {
  const res = await api.post<{ id: string }>('/managed-targets', { name: 'App', url });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** An experiment over one case with a source file and an evaluator-only file. */
async function setup(cases = 1) {
  const dataset = await api.post<{ id: string }>('/datasets', { name: 'Docs', slug: uniqueSlug('docs') });
  const version = await api.post<{ id: string; revision: number }>(
    `/datasets/${dataset.body.id}/versions`,
    {},
  );
  let revision = version.body.revision;
  const caseIds: string[] = [];
  for (let index = 0; index < cases; index++) {
    const written = await api.post<{ item: { id: string }; version: { revision: number } }>(
      `/dataset-versions/${version.body.id}/cases`,
      {
        expectedRevision: revision,
        externalKey: `case-${index}`,
        inputs: { question: `q${index}` },
        expected: 'secret answer',
        files: [
          {
            role: 'source',
            name: 'doc.txt',
            contentType: 'text/plain',
            data: Buffer.from(SOURCE).toString('base64'),
          },
          {
            role: 'evaluator_reference',
            name: 'ref.txt',
            contentType: 'text/plain',
            data: Buffer.from(REFERENCE).toString('base64'),
          },
        ],
      },
    );
    expect(written.status).toBe(200);
    caseIds.push(written.body.item.id);
    revision = written.body.version.revision;
  }
  await api.post(`/dataset-versions/${version.body.id}/freeze`, { expectedRevision: revision });
  const created = await experiment(api, version.body.id, [], { model: 'small' });
  return { experimentId: created.id, caseIds, targetId: await registerTarget() };
}

async function dispatch(experimentId: string, caseId: string, body: Record<string, unknown>) {
  return api.post<Dispatched & ErrorBody>(`/experiments/${experimentId}/cases/${caseId}/dispatch`, body);
}

async function dispatched() {
  const { experimentId, caseIds, targetId } = await setup();
  const res = await dispatch(experimentId, caseIds[0]!, { targetId });
  expect(res.status).toBe(200);
  await waitForDelivery(res.body.dispatch.id);
  return { experimentId, caseId: caseIds[0]!, targetId, executionId: res.body.execution.id };
}

async function claim(executionId: string, body: Record<string, unknown> = {}, idempotencyKey?: string) {
  return api.post<Claim & ErrorBody>(`/executions/${executionId}/claim`, body, {
    ...machine(),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

function follow(fixture: ServerFixture, url: string, init: RequestInit = {}) {
  const { pathname, search } = new URL(url);
  return fixture.request(`${pathname}${search}`, init);
}

describe('managed targets', () => {
  it('registers a target and refuses URLs that are not plain http(s) endpoints', async () => {
    const id = await registerTarget();
    const read = await api.get<{ id: string; url: string }>(`/managed-targets/${id}`, {
      key: fx.server.keys.read,
    });
    expect(read.body).toMatchObject({ id, url: target.url });
    for (const url of [
      'ftp://example.com/x',
      'https://user:pw@example.com/x',
      'https://example.com/x#y',
      'relative',
    ]) {
      const res = await api.post<ErrorBody>('/managed-targets', { name: 'Bad', url });
      expect(res.status, url).toBe(422); // the URL rule is stated in prose, not in the JSON Schema
      expect(res.body.error.message).toContain('url');
    }
    expect((await api.get(`/managed-targets/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('dispatches: starts an execution and POSTs it to the target, signed with a key derived from the machine credential', async () => {
    const { experimentId, caseIds, targetId } = await setup();
    const before = target.requests.length;
    const res = await dispatch(experimentId, caseIds[0]!, { targetId });
    expect(res.status).toBe(200);
    expect(res.body.dispatch).toMatchObject({
      state: 'delivering',
      targetId,
      executionId: res.body.execution.id,
    });
    expect(res.body.execution).toMatchObject({ state: 'started', attempt: 1, traceExternalId: null });
    const done = await waitForDelivery(res.body.dispatch.id);
    expect(done).toMatchObject({
      state: 'delivered',
      responseStatus: 200,
      response: {
        executionId: res.body.execution.id,
        state: 'succeeded',
        outcomeSaved: true,
        outputFiles: 0,
        telemetryFlushed: true,
      },
      failure: null,
    });

    const sent = target.requests.slice(before);
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!.body);
    expect(body).toEqual({
      type: 'svc.managed.execution',
      deliveryId: res.body.dispatch.id,
      executionId: res.body.execution.id,
      experimentId,
      caseId: caseIds[0],
    });
    const header = String(sent[0]!.headers[SIGNATURE_HEADER]);
    const match = /^t=(\d+),v1=([A-Za-z0-9_-]{43})$/.exec(header);
    expect(match).not.toBeNull();
    const expected = createHmac('sha256', managedSigningKey(fx.server.keys.machine))
      .update(`${match![1]}.${sent[0]!.body}`)
      .digest('base64url');
    expect(match![2]).toBe(expected);
    // The credential itself never travels to the target.
    expect(JSON.stringify(sent[0])).not.toContain(fx.server.keys.machine);
    expect(sent[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses a dispatch to an unknown target, and a second dispatch that does not replace the execution', async () => {
    const { experimentId, caseIds, targetId } = await setup();
    const unknown = await dispatch(experimentId, caseIds[0]!, { targetId: UNKNOWN_ID });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('targetId: no managed target has this ID.');
    const first = await dispatch(experimentId, caseIds[0]!, { targetId });
    await waitForDelivery(first.body.dispatch.id);
    const again = await dispatch(experimentId, caseIds[0]!, { targetId });
    expect(again.status).toBe(409);
    const bad = await dispatch(experimentId, caseIds[0]!, { targetId, allowUncertainRetry: true });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe(
      'allowUncertainRetry: allowUncertainRetry needs previousExecutionId.',
    );
    const replacing = await dispatch(experimentId, caseIds[0]!, {
      targetId,
      previousExecutionId: first.body.execution.id,
      allowUncertainRetry: true,
    });
    expect(replacing.status).toBe(200);
    expect(replacing.body.execution).toMatchObject({
      attempt: 2,
      previousExecutionId: first.body.execution.id,
    });
    await waitForDelivery(replacing.body.dispatch.id);
  });

  it('answers 404 not_found for an unknown target, dispatch or execution, and for an execution never dispatched', async () => {
    const missing: Array<[string, string]> = [
      [`/managed-targets/${UNKNOWN_ID}`, 'targetId: no managed target has this ID.'],
      [`/dispatches/${UNKNOWN_ID}`, 'No dispatch has this ID.'],
      [`/executions/${UNKNOWN_ID}/managed`, 'No execution has this ID.'],
    ];
    const { versionId, caseIds } = await datasetVersion(api, [{ externalKey: 'local', inputs: 1 }]);
    const created = await experiment(api, versionId);
    const local = await api.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseIds[0]}/executions`,
      {},
    );
    missing.push([
      `/executions/${local.body.id}/managed`,
      'This execution was not dispatched to a managed target.',
    ]);
    for (const [path, message] of missing) {
      const res = await api.get<ErrorBody>(path, { key: fx.server.keys.read });
      expect(res.status, path).toBe(404);
      expect(res.body.error, path).toEqual({ code: 'not_found', message });
    }
    for (const path of ['/managed-targets/nope', '/dispatches/nope', '/executions/nope/managed']) {
      expect((await api.get(path)).status, path).toBe(400);
    }
  });

  it('shows the managed side of a dispatched execution before its claim: no claim, usage or files yet', async () => {
    const { executionId, targetId } = await dispatched();
    const view = await api.get(`/executions/${executionId}/managed`, { key: fx.server.keys.read });
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      executionId,
      dispatchId: expect.any(String),
      targetId,
      claimedAt: null,
      outcomeSavedAt: null,
      usage: null,
      outputFiles: [],
    });
  });

  it("keeps only the managed handler's fields of the answer, so a Read key cannot read another service through a target", async () => {
    const executionId = '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a';
    const chatty = await recordedTarget(() => ({
      status: 200,
      body: {
        executionId,
        state: 'error',
        outcomeSaved: 'yes', // not the handler's type: dropped
        outputFiles: 2,
        telemetryFlushed: false,
        error: { code: 'outcome_not_saved', message: 'the internal service said: secret-marker' },
        AccessKeyId: 'secret-marker',
        nested: { token: 'secret-marker' },
      },
    }));
    const foreign = await recordedTarget(() => ({
      status: 200,
      body: { Token: 'secret-marker', Expiration: 1 },
    }));
    const list = await recordedTarget(() => ({ status: 200, body: ['secret-marker'] }));
    try {
      const { experimentId, caseIds } = await setup(3);
      const answers: Dispatch[] = [];
      for (const [index, url] of [chatty.url, foreign.url, list.url].entries()) {
        const res = await dispatch(experimentId, caseIds[index]!, { targetId: await registerTarget(url) });
        await waitForDelivery(res.body.dispatch.id);
        const read = await api.get<Dispatch>(`/dispatches/${res.body.dispatch.id}`, {
          key: fx.server.keys.read,
        });
        expect(read.status).toBe(200);
        answers.push(read.body);
      }
      expect(answers[0]).toMatchObject({
        state: 'delivered',
        responseStatus: 200,
        response: {
          executionId,
          state: 'error',
          outputFiles: 2,
          telemetryFlushed: false,
          error: { code: 'outcome_not_saved' },
        },
      });
      expect(Object.keys(answers[0]!.response as object).sort()).toEqual(
        ['error', 'executionId', 'outputFiles', 'state', 'telemetryFlushed'].sort(),
      );
      expect(answers[1]).toMatchObject({ state: 'delivered', responseStatus: 200, response: null });
      expect(answers[2]).toMatchObject({ state: 'delivered', responseStatus: 200, response: null });
      expect(JSON.stringify(answers)).not.toContain('secret-marker');
    } finally {
      await Promise.all([chatty.close(), foreign.close(), list.close()]);
    }
  });

  it('follows no redirect: a 3xx answer fails the delivery and the location is never contacted', async () => {
    const elsewhere = await recordedTarget();
    const redirecting = await recordedTarget(() => ({
      status: 307,
      headers: { location: `${elsewhere.url}/latest/meta-data` },
      body: {},
    }));
    try {
      const { experimentId, caseIds } = await setup();
      const res = await dispatch(experimentId, caseIds[0]!, {
        targetId: await registerTarget(redirecting.url),
      });
      const done = await waitForDelivery(res.body.dispatch.id);
      expect(done).toMatchObject({ state: 'failed', responseStatus: null, response: null });
      expect(done.failure).toBe(
        'the target answered 307, a redirect, which deliveries do not follow: register the URL that answers itself',
      );
      expect(redirecting.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });

  it('records a delivery that cannot reach its target as failed', async () => {
    const closed = await recordedTarget();
    await closed.close();
    const { experimentId, caseIds } = await setup();
    const targetId = await registerTarget(closed.url);
    const res = await dispatch(experimentId, caseIds[0]!, { targetId });
    const done = await waitForDelivery(res.body.dispatch.id);
    expect(done.state).toBe('failed');
    expect(done.responseStatus).toBeNull();
    expect(done.failure).toMatch(/^the target could not be reached/);
  });
});

describe('claims', () => {
  it('answers the first claim with inputs, configuration and links to the files the agent sees', async () => {
    const { executionId, experimentId, caseId } = await dispatched();
    const traceId = 'a'.repeat(32);
    const res = await claim(executionId, { traceId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      executionId,
      experimentId,
      caseId,
      attempt: 1,
      traceId,
      inputs: { question: 'q0' },
      config: { model: 'small' },
    });
    expect(JSON.stringify(res.body)).not.toContain('secret answer'); // the expected value is not handed out
    expect(res.body.files.map((file) => file.role)).toEqual(['source']);
    const [file] = res.body.files;
    expect(file).toMatchObject({
      name: 'doc.txt',
      sha256: sha256(SOURCE),
      size: SOURCE.length,
      contentType: 'text/plain',
    });
    const download = await follow(fx, file!.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(SOURCE);
    const execution = await api.get<{ traceExternalId: string }>(`/executions/${executionId}`);
    expect(execution.body.traceExternalId).toBe(traceId);
  });

  it('refuses every later claim (already_claimed); the same idempotency key replays the first answer', async () => {
    const { executionId } = await dispatched();
    const key = randomUUID();
    const first = await claim(executionId, {}, key);
    expect(first.status).toBe(200);
    const replay = await claim(executionId, {}, key);
    expect(replay.status).toBe(200);
    expect(replay.body.claimId).toBe(first.body.claimId);
    const second = await claim(executionId);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('already_claimed');
  });

  it('lets two concurrent claims of one execution win once', async () => {
    const { executionId } = await dispatched();
    const answers = await Promise.all([claim(executionId), claim(executionId), claim(executionId)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
  });

  it('claims only dispatched, started executions, with the machine credential only', async () => {
    const { versionId, caseIds } = await datasetVersion(api, [{ externalKey: 'plain', inputs: 1 }]);
    const created = await experiment(api, versionId);
    const started = await api.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseIds[0]}/executions`,
      {},
    );
    const local = await claim(started.body.id);
    expect(local.status).toBe(409);
    expect(local.body.error.code).toBe('conflict');
    expect((await claim(UNKNOWN_ID)).status).toBe(404);

    const { executionId } = await dispatched();
    for (const key of [fx.server.keys.readWrite, fx.server.keys.read, fx.server.keys.tracing]) {
      const res = await api.post(`/executions/${executionId}/claim`, {}, { key });
      expect(res.status).toBe(403);
    }
    expect((await claim(executionId, { traceId: '0'.repeat(32) })).status).toBe(400);
  });
});

describe('outcomes', () => {
  async function claimed() {
    const setup = await dispatched();
    const res = await claim(setup.executionId);
    return { ...setup, claimId: res.body.claimId };
  }

  it('saves the outcome with output files and usage; the execution is completed', async () => {
    const { executionId, claimId } = await claimed();
    const bytes = new TextEncoder().encode('a generated report');
    const declared = await api.post<{
      artifact: { id: string };
      upload: { url: string; headers: Record<string, string> };
    }>(
      `/executions/${executionId}/output-files`,
      { claimId, sha256: sha256(bytes), size: bytes.length, contentType: 'text/plain', name: 'report.txt' },
      machine(),
    );
    expect(declared.status).toBe(200);
    const pendingOutcome = await api.post<ErrorBody>(
      `/executions/${executionId}/outcome`,
      { claimId, state: 'succeeded', files: [{ artifactId: declared.body.artifact.id }] },
      machine(),
    );
    expect(pendingOutcome.status).toBe(409);
    const put = await follow(fx, declared.body.upload.url, {
      method: 'PUT',
      headers: declared.body.upload.headers,
      body: bytes,
    });
    expect(put.status).toBe(201);
    const key = randomUUID();
    const body = {
      claimId,
      state: 'succeeded',
      output: { answer: 42 },
      files: [{ artifactId: declared.body.artifact.id }],
      usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
    };
    const saved = await api.post<{ executionId: string; evaluationItemId: string; outputFiles: unknown[] }>(
      `/executions/${executionId}/outcome`,
      body,
      { ...machine(), idempotencyKey: key },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.outputFiles).toEqual([
      {
        name: 'report.txt',
        contentType: 'text/plain',
        sha256: sha256(bytes),
        size: bytes.length,
        artifactId: declared.body.artifact.id,
      },
    ]);
    const execution = await api.get<{ state: string; output: unknown; evaluationItemId: string }>(
      `/executions/${executionId}`,
    );
    expect(execution.body).toMatchObject({
      state: 'succeeded',
      output: { answer: 42 },
      evaluationItemId: saved.body.evaluationItemId,
    });
    const view = await api.get(`/executions/${executionId}/managed`, { key: fx.server.keys.read });
    expect(view.body).toMatchObject({ executionId, usage: body.usage, outputFiles: saved.body.outputFiles });
    expect(view.body.claimedAt).toEqual(expect.any(String));
    expect(view.body.outcomeSavedAt).toEqual(expect.any(String));

    const replay = await api.post(`/executions/${executionId}/outcome`, body, {
      ...machine(),
      idempotencyKey: key,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await api.post<ErrorBody>(`/executions/${executionId}/outcome`, body, machine());
    expect(again.status).toBe(409);
    // Once the outcome is saved, no file can be added to it.
    const late = await api.post(
      `/executions/${executionId}/output-files`,
      { claimId, sha256: sha256(bytes), size: bytes.length, contentType: 'text/plain', name: 'late.txt' },
      machine(),
    );
    expect(late.status).toBe(409);
  });

  it('saves error and cancelled outcomes with their error type', async () => {
    const first = await claimed();
    const error = await api.post(
      `/executions/${first.executionId}/outcome`,
      {
        claimId: first.claimId,
        state: 'error',
        error: { type: 'OutcomeSerializationError', message: 'not JSON' },
      },
      machine(),
    );
    expect(error.status).toBe(200);
    expect((await api.get(`/executions/${first.executionId}`)).body).toMatchObject({
      state: 'error',
      error: { type: 'OutcomeSerializationError' },
    });
    const second = await claimed();
    const cancelled = await api.post(
      `/executions/${second.executionId}/outcome`,
      { claimId: second.claimId, state: 'cancelled', error: { type: 'ExecutionTimeoutError' } },
      machine(),
    );
    expect(cancelled.status).toBe(200);
    expect((await api.get(`/executions/${second.executionId}`)).body).toMatchObject({ state: 'cancelled' });
  });

  it('refuses an outcome without the claim, with another claim ID, or with bad fields', async () => {
    const { executionId } = await dispatched();
    const unclaimed = await api.post<ErrorBody>(
      `/executions/${executionId}/outcome`,
      { claimId: randomUUID(), state: 'succeeded' },
      machine(),
    );
    expect(unclaimed.status).toBe(409);
    expect(unclaimed.body.error.message).toContain('not claimed');
    await claim(executionId);
    const other = await api.post<ErrorBody>(
      `/executions/${executionId}/outcome`,
      { claimId: randomUUID(), state: 'succeeded' },
      machine(),
    );
    expect(other.status).toBe(409);
    expect(other.body.error.message).toContain('claimId');
    // 400: breaks the document's schema; 422: a rule between fields, which JSON Schema cannot state.
    const invalid: Array<[Record<string, unknown>, number]> = [
      [{ claimId: randomUUID(), state: 'error' }, 422],
      [{ claimId: randomUUID(), state: 'succeeded', error: { type: 'X' } }, 422],
      [{ claimId: randomUUID(), state: 'done' }, 400],
      [{ claimId: randomUUID(), state: 'succeeded', usage: { inputTokens: -1 } }, 400],
      [{ claimId: randomUUID(), state: 'succeeded', usage: { tokens: 1 } }, 400],
    ];
    for (const [body, status] of invalid) {
      const res = await api.post(`/executions/${executionId}/outcome`, body, machine());
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect((await api.post(`/executions/${executionId}/outcome`, invalid[0]![0], {})).status).toBe(403);
  });
});
