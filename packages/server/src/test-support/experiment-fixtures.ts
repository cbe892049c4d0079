/**
 * Test support for the viewer's experiment pages: two experiments made through the documented
 * registry routes, in-process, as `svc eval` makes them — a baseline and a run compared with it —
 * with cases in every state, an output file on a case's trace (sent as OTLP JSON, its bytes
 * uploaded), and recorded strings that try to run script. Not part of the package's public API.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RunningServer } from '../start-server.js';
import { blobsAttribute, entryOf, fileEvent, ingest, sha256Of, upload } from './media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, tracesRequest } from './otlp-fixtures.js';

/** Recorded strings that must show as text, never run. */
export const EXPERIMENT_XSS = {
  key: '<img src=x onerror=alert("case-key")>',
  explanation: '<script>alert("explanation")</script>The output does not include the expected text.',
  error: 'The command exited with code 3. <b onmouseover=alert("error")>stderr</b>',
  revision: 'v1.2 <script>alert("revision")</script>',
  fileName: '"><img src=x onerror=alert("file-name")>.png',
};

/** What the scenario made. */
export interface ExperimentScenario {
  baselineId: string;
  experimentId: string;
  evalSetSlug: string;
  /** The trace of the `answers` case, holding its output file. */
  answersTraceId: string;
  /** The output file of `answers` (a PNG). */
  chart: Buffer;
}

const chart = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));

/** A registry client bound to `server` (the Read-and-write key, in-process). */
function registry(server: RunningServer) {
  return async <T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await server.app.request(`${server.origin}/api/v1/evals${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.keys.readWrite}`,
        ...(method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
}

const slug = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Makes the baseline and the compared experiment. */
export async function experimentScenario(server: RunningServer): Promise<ExperimentScenario> {
  const api = registry(server);
  const includes = await api<{ id: string }>('POST', '/scorers', {
    name: 'Mentions',
    slug: slug('mentions'),
  });
  const includesVersion = await api<{ id: string }>('POST', `/scorers/${includes.id}/versions`, {
    kind: 'builtin',
    builtin: 'includes',
  });
  const review = await api<{ id: string }>('POST', '/scorers', { name: 'Review', slug: slug('review') });
  const reviewVersion = await api<{ id: string }>('POST', `/scorers/${review.id}/versions`, {
    kind: 'manual',
    metrics: [{ name: 'approved', type: 'boolean' }],
  });
  const scorerVersionIds = [includesVersion.id, reviewVersion.id];

  async function evalSet(keys: readonly string[]) {
    const evalSetSlug = slug('docs');
    const dataset = await api<{ id: string }>('POST', '/datasets', { name: 'Docs', slug: evalSetSlug });
    let version = await api<{ id: string; revision: number }>('POST', `/datasets/${dataset.id}/versions`, {});
    const caseIds = new Map<string, string>();
    for (const externalKey of keys) {
      const written = await api<{ item: { id: string }; version: { id: string; revision: number } }>(
        'POST',
        `/dataset-versions/${version.id}/cases`,
        {
          expectedRevision: version.revision,
          externalKey,
          inputs: { question: externalKey },
          expected: 'yes',
        },
      );
      caseIds.set(externalKey, written.item.id);
      version = written.version;
    }
    await api('POST', `/dataset-versions/${version.id}/freeze`, { expectedRevision: version.revision });
    return { evalSetSlug, versionId: version.id, caseIds };
  }

  async function run(
    set: Awaited<ReturnType<typeof evalSet>>,
    config: Record<string, unknown>,
    cases: Record<
      string,
      | { state: 'succeeded'; passed: boolean; reviewed: boolean; explanation?: string; traceId?: string }
      | { state: 'error'; message: string }
      | { state: 'started' }
    >,
  ) {
    const experiment = await api<{ id: string; evaluationRunId: string }>('POST', '/experiments', {
      name: `${set.evalSetSlug} v1`,
      datasetVersionId: set.versionId,
      scorerVersionIds,
      config,
    });
    for (const [key, outcome] of Object.entries(cases)) {
      const execution = await api<{ id: string }>(
        'POST',
        `/experiments/${experiment.id}/cases/${set.caseIds.get(key)}/executions`,
        { traceExternalId: 'traceId' in outcome && outcome.traceId ? outcome.traceId : newTraceId() },
      );
      if (outcome.state === 'started') continue;
      if (outcome.state === 'error') {
        await api('POST', `/executions/${execution.id}/complete`, {
          state: 'error',
          error: { type: 'CommandFailed', message: outcome.message },
        });
        continue;
      }
      const completion = await api<{ evaluationItemId: string }>(
        'POST',
        `/executions/${execution.id}/complete`,
        {
          state: 'succeeded',
          output: { text: outcome.passed ? 'yes' : 'no' },
        },
      );
      const results = [
        {
          evaluationItemId: completion.evaluationItemId,
          scorerVersionId: includesVersion.id,
          status: 'scored',
          metrics: [{ name: 'includes', value: outcome.passed, passed: outcome.passed }],
          explanation:
            outcome.explanation ??
            (outcome.passed ? 'The output includes the expected text.' : 'The output does not include it.'),
        },
      ];
      if (outcome.reviewed) {
        results.push({
          evaluationItemId: completion.evaluationItemId,
          scorerVersionId: reviewVersion.id,
          status: 'scored',
          metrics: [{ name: 'approved', value: true, passed: true }],
          explanation: 'Looks right to me.',
        });
      }
      await api('POST', `/runs/${experiment.evaluationRunId}/results`, { results });
    }
    return experiment.id;
  }

  // The baseline: `answers` failed, `wrong` passed, `gone` passed (and is not in the new eval set).
  const before = await evalSet(['answers', 'wrong', 'gone']);
  const baselineId = await run(
    before,
    { svcEval: { mode: 'direct', revision: 'v1.1' } },
    {
      answers: { state: 'succeeded', passed: false, reviewed: true },
      wrong: { state: 'succeeded', passed: true, reviewed: true },
      gone: { state: 'succeeded', passed: true, reviewed: true },
    },
  );

  // The trace of `answers`: its case span with the output file the command wrote.
  const answersTraceId = newTraceId();
  await upload(server, answersTraceId, chart, {
    key: `event:svc.file:${sha256Of(chart)}`,
    contentType: 'image/png',
  });
  await ingest(
    server,
    'traces',
    tracesRequest([
      jsonSpan(answersTraceId, {
        spanId: newSpanId(),
        name: 'eval.case',
        attributes: [
          blobsAttribute([
            entryOf(chart, { key: `event:svc.file:${sha256Of(chart)}`, name: EXPERIMENT_XSS.fileName }),
          ]),
        ],
        events: [fileEvent(chart, { mediaType: 'image/png', name: EXPERIMENT_XSS.fileName, role: 'output' })],
      }),
    ]),
  );

  // The run: every state, compared with the baseline.
  const now = await evalSet([
    'answers',
    'wrong',
    'crashes',
    'judged',
    'running',
    'never',
    EXPERIMENT_XSS.key,
  ]);
  const experimentId = await run(
    now,
    {
      svcEval: { mode: 'direct', revision: EXPERIMENT_XSS.revision, baselineExperimentId: baselineId },
    },
    {
      answers: { state: 'succeeded', passed: true, reviewed: true, traceId: answersTraceId },
      wrong: { state: 'succeeded', passed: false, reviewed: true, explanation: EXPERIMENT_XSS.explanation },
      crashes: { state: 'error', message: EXPERIMENT_XSS.error },
      judged: { state: 'succeeded', passed: true, reviewed: false },
      running: { state: 'started' },
      [EXPERIMENT_XSS.key]: { state: 'succeeded', passed: true, reviewed: true },
    },
  );
  return { baselineId, experimentId, evalSetSlug: now.evalSetSlug, answersTraceId, chart };
}
