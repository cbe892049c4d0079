import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueSlug, useEvalServer } from '../evals/client/__fixtures__/eval-server.js';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { waitUntil } from '../test-support/wait-until.js';
import {
  type HandlerAnswer,
  type ManagedHarness,
  serveManagedHandler,
} from './__fixtures__/managed-harness.js';
import {
  createManagedTargetHandler,
  createManagedTargetHandlerWith,
} from './create-managed-target-handler.js';
import { MAX_EXECUTION_MILLIS, type ManagedTargetHandlerOptions } from './managed-handler-options.js';
import { managedSigningKey, SIGNATURE_HEADER, signManagedBody } from './managed-signature.js';
import type { ManagedTargetInput } from './managed-types.js';
import type { StartDeadline } from './run-target.js';

// The handler listens on 127.0.0.1: the server must be started to deliver to private addresses.
const fx = useEvalServer({ faultInjection: true, allowPrivateTargets: true });
const diagnostics = useDiagLogger();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const harnesses: ManagedHarness[] = [];
afterEach(async () => {
  fx.server.faults?.clear();
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

/** A call of the service's HTTP API with the Read-and-write key. */
async function service<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${fx.server.origin}/api/v1/evals${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${fx.server.keys.readWrite}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

interface Setup {
  experimentId: string;
  caseIds: string[];
  /** The source file of each case. */
  files: Buffer[];
}

/** An experiment (config `{ model: 'small' }`) over `count` cases, each with a source file of its own. */
async function experiment(count = 1): Promise<Setup> {
  const dataset = await fx.client.createDataset({ name: 'Managed', slug: uniqueSlug('managed') });
  const version = await fx.client.createDatasetVersion(dataset.id);
  let revision = version.revision;
  const caseIds: string[] = [];
  const files: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const file = Buffer.concat([Buffer.from('contract '), randomBytes(24)]);
    files.push(file);
    const written = await fx.client.addCase(version.id, {
      expectedRevision: revision,
      externalKey: `case-${index}`,
      inputs: { question: `question ${index}` },
      expected: 'the reference answer',
      files: [
        { role: 'source', name: 'contract.bin', contentType: 'application/octet-stream', data: file },
        { role: 'evaluator_reference', name: 'ref.txt', contentType: 'text/plain', data: Buffer.from('ref') },
      ],
    });
    caseIds.push(written.item.id);
    revision = written.version.revision;
  }
  await fx.client.freezeDatasetVersion(version.id, revision);
  const created = await fx.client.createExperiment({
    idempotencyKey: randomUUID(),
    name: 'Managed run',
    datasetVersionId: version.id,
    scorerVersionIds: [],
    config: { model: 'small' },
  });
  return { experimentId: created.id, caseIds, files };
}

async function registerTarget(url: string): Promise<string> {
  return (await service<{ id: string }>('/managed-targets', { name: 'App', url })).id;
}

async function dispatch(experimentId: string, caseId: string, targetId: string): Promise<string> {
  const answer = await service<{ execution: { id: string } }>(
    `/experiments/${experimentId}/cases/${caseId}/dispatch`,
    { targetId },
  );
  return answer.execution.id;
}

/** Registers `url` as a managed target and dispatches the first case of `setup` to it. */
async function dispatchFirstCase(setup: Setup, url: string): Promise<string> {
  return dispatch(setup.experimentId, setup.caseIds[0]!, await registerTarget(url));
}

interface Recorded {
  calls: ManagedTargetInput[];
  events: string[];
}

/**
 * A handler on a real port, with the server's machine credential. `flushTelemetry` records the
 * state of the execution at the moment it is called; each answer records the state before it leaves.
 * With `startDeadline`, the targets' deadlines are the test's to expire.
 */
async function serve(
  target: ManagedTargetHandlerOptions['target'],
  options: Partial<ManagedTargetHandlerOptions> = {},
  startDeadline?: StartDeadline,
): Promise<ManagedHarness & Recorded> {
  const recorded: Recorded = { calls: [], events: [] };
  let lastExecution: string | undefined;
  const create =
    startDeadline === undefined
      ? createManagedTargetHandler
      : (given: ManagedTargetHandlerOptions) => createManagedTargetHandlerWith(given, startDeadline);
  const handler = create({
    machineCredential: fx.server.keys.machine,
    baseUrl: fx.server.origin,
    flushTelemetry: async () => {
      const state =
        lastExecution === undefined ? 'none' : (await fx.client.getExecution(lastExecution)).state;
      recorded.events.push(`flush:${state}`);
    },
    target: async (input) => {
      recorded.calls.push(input);
      recorded.events.push('target');
      lastExecution = input.execution.executionId;
      return target(input);
    },
    ...options,
  });
  const harness = await serveManagedHandler(handler, async (answer) => {
    if (answer.status === 401 || answer.status === 405) return undefined; // not a request of the service
    const executionId = (JSON.parse(answer.request.body) as { executionId: string }).executionId;
    return (await fx.client.getExecution(executionId)).state;
  });
  harnesses.push(harness);
  return Object.assign(harness, recorded);
}

async function managedView(executionId: string) {
  return service<{
    claimedAt: string | null;
    usage: unknown;
    outputFiles: Array<{ name: string; sha256: string; size: number; contentType: string }>;
    dispatchId: string;
  }>(`/executions/${executionId}/managed`);
}

describe('createManagedTargetHandler end to end', () => {
  it('runs a case once with its verified files, saves the outcome before answering, then flushes', async () => {
    const setup = await experiment();
    const generated = Buffer.from('a generated summary');
    const harness = await serve(async () => ({
      output: { answer: 'forty-two' },
      usage: { inputTokens: 12, outputTokens: 3, costUsd: 0.002 },
      files: [{ name: 'summary.txt', contentType: 'text/plain', data: generated }],
    }));
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer = await harness.answerFor(executionId);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      executionId,
      state: 'succeeded',
      outcomeSaved: true,
      outputFiles: 1,
      telemetryFlushed: true,
    });
    expect(answer.checked).toBe('succeeded'); // saved before the answer left
    expect(harness.events).toEqual(['target', 'flush:succeeded']); // flushed after saving

    expect(harness.calls).toHaveLength(1);
    const input = harness.calls[0]!;
    expect(input.inputs).toEqual({ question: 'question 0' });
    expect(input.config).toEqual({ model: 'small' });
    expect(input.execution).toEqual({
      executionId,
      experimentId: setup.experimentId,
      caseId: setup.caseIds[0],
      attempt: 1,
    });
    expect(input.files).toHaveLength(1); // the evaluator-only file is not handed over
    expect(input.files[0]).toMatchObject({
      role: 'source',
      name: 'contract.bin',
      contentType: 'application/octet-stream',
      sha256: sha256(setup.files[0]!),
      size: setup.files[0]!.length,
    });
    expect(Buffer.from(input.files[0]!.bytes).equals(setup.files[0]!)).toBe(true);
    expect(input.signal.aborted).toBe(false);
    expect(JSON.stringify(input)).not.toContain('the reference answer');

    const execution = await fx.client.getExecution(executionId);
    expect(execution).toMatchObject({ state: 'succeeded', output: { answer: 'forty-two' } });
    expect(input.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(execution.traceExternalId).toBe(input.traceId);
    const view = await managedView(executionId);
    expect(view.usage).toEqual({ inputTokens: 12, outputTokens: 3, costUsd: 0.002 });
    expect(view.outputFiles).toEqual([
      expect.objectContaining({ name: 'summary.txt', sha256: sha256(generated), size: generated.length }),
    ]);
    const delivered = await service<{ state: string; responseStatus: number; response: unknown }>(
      `/dispatches/${view.dispatchId}`,
    );
    expect(delivered).toMatchObject({ state: 'delivered', responseStatus: 200, response: answer.body });
  });

  it('answers a replayed request 409 and never runs the target again', async () => {
    const setup = await experiment();
    const harness = await serve(async () => ({ output: 'once' }));
    const executionId = await dispatchFirstCase(setup, harness.url);
    const first = await harness.answerFor(executionId);
    expect(first.status).toBe(200);

    const replay = await harness.send(first.request); // the same signed bytes, within the signature's window
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ error: { code: 'already_claimed' } });
    expect(harness.calls).toHaveLength(1);
    expect(harness.events).toEqual(['target', 'flush:succeeded']);
    expect((await fx.client.getExecution(executionId)).output).toBe('once');
  });

  it('refuses requests not signed with the machine credential (401) without claiming or running anything', async () => {
    const setup = await experiment();
    const harness = await serve(async () => ({ output: 'ran' }));
    const executionId = await dispatchFirstCase(setup, harness.holdUrl);
    const original = await harness.heldFor(executionId);
    const key = managedSigningKey(fx.server.keys.machine);
    const { [SIGNATURE_HEADER]: _signature, ...unsigned } = original.headers;
    const variants = {
      'no signature': { ...original, headers: unsigned },
      'another credential': {
        ...original,
        headers: {
          ...unsigned,
          [SIGNATURE_HEADER]: signManagedBody(
            managedSigningKey('svc_machine_other'),
            original.body,
            Date.now(),
          ),
        },
      },
      'an old timestamp': {
        ...original,
        headers: {
          ...unsigned,
          [SIGNATURE_HEADER]: signManagedBody(key, original.body, Date.now() - 10 * 60_000),
        },
      },
      'a changed body': { ...original, body: original.body.replace('"type"', '"type" ') },
      'a garbled header': { ...original, headers: { ...unsigned, [SIGNATURE_HEADER]: 't=abc,v1=xyz' } },
    };
    for (const [what, request] of Object.entries(variants)) {
      const answer = await harness.send(request);
      expect(answer.status, what).toBe(401);
      expect(answer.body, what).toMatchObject({ error: { code: 'unauthorized' } });
      expect(JSON.stringify(answer.body)).not.toContain(fx.server.keys.machine);
    }
    expect(harness.calls).toHaveLength(0);
    expect((await managedView(executionId)).claimedAt).toBeNull();
    // The genuine request still runs the case: the refusals touched nothing.
    expect((await harness.send(original)).status).toBe(200);
    expect(harness.calls).toHaveLength(1);
    const other = await fetch(harness.url);
    expect(other.status).toBe(405);
  });

  it('ends the execution in error without running the target when an input file does not match the case', async () => {
    const setup = await experiment();
    const file = setup.files[0]!;
    const digest = sha256(file);
    // Same size, other bytes: the service's storage was tampered with.
    writeFileSync(join(fx.server.dataDir, 'blobs', digest.slice(0, 2), digest), Buffer.alloc(file.length, 7));
    const harness = await serve(async () => ({ output: 'must not run' }));
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer = await harness.answerFor(executionId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ state: 'error', outcomeSaved: true });
    expect(harness.calls).toHaveLength(0);
    const execution = await fx.client.getExecution(executionId);
    expect(execution.state).toBe('error');
    expect(execution.error?.type).toBe('InputFileVerificationError');
    expect(execution.error?.message).toContain(digest);
    expect(execution.output).toBeUndefined();
  });

  it('aborts a target that outlasts maxExecutionMillis and saves it cancelled, whether or not it heeds the signal', async () => {
    const setup = await experiment(2);
    const aborts: string[] = [];
    // Each execution's deadline, as the handler starts it: this test says when it passes.
    const deadlines: Array<{ millis: number; expire: () => void }> = [];
    const harness = await serve(
      ({ inputs, signal }) =>
        (inputs as { question: string }).question === 'question 0'
          ? new Promise((resolve) => {
              signal.addEventListener('abort', () => {
                aborts.push((signal.reason as Error).name);
                resolve({ output: 'too late' });
              });
            })
          : new Promise(() => {}), // never settles and ignores the signal
      // The longest budget (the default): the input download is never cut short, however slow.
      { maxExecutionMillis: MAX_EXECUTION_MILLIS },
      (millis, expire) => {
        deadlines.push({ millis, expire });
        return () => {};
      },
    );
    const targetId = await registerTarget(harness.url);
    for (const [index, caseId] of setup.caseIds.entries()) {
      const executionId = await dispatch(setup.experimentId, caseId, targetId);
      // The target runs (its input downloaded and verified first); it never ends by itself.
      await waitUntil(() => harness.calls.length === index + 1, `the target of case ${index} to run`);
      // Its deadline is what is left of the execution budget, started before the target ran.
      expect(deadlines).toHaveLength(index + 1);
      expect(deadlines[index]!.millis).toBeGreaterThan(0);
      expect(deadlines[index]!.millis).toBeLessThanOrEqual(MAX_EXECUTION_MILLIS);
      deadlines[index]!.expire();
      const answer = await harness.answerFor(executionId);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ state: 'cancelled', outcomeSaved: true });
      const execution = await fx.client.getExecution(executionId);
      expect(execution.state).toBe('cancelled');
      expect(execution.error?.type).toBe('ExecutionTimeoutError');
      expect(execution.output).toBeUndefined();
    }
    expect(aborts).toEqual(['TimeoutError']);
    expect(harness.calls).toHaveLength(2);
  });

  it('saves a thrown error as state error with its type', async () => {
    class QuotaError extends Error {
      override name = 'QuotaError';
    }
    const setup = await experiment();
    const harness = await serve(async () => {
      throw new QuotaError('the model quota ran out');
    });
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer = await harness.answerFor(executionId);
    expect(answer.body).toMatchObject({ state: 'error', outcomeSaved: true, telemetryFlushed: true });
    const execution = await fx.client.getExecution(executionId);
    expect(execution.error).toEqual({ type: 'QuotaError', message: 'the model quota ran out' });
    expect(harness.events).toEqual(['target', 'flush:error']);
  });

  it('saves an output that is not JSON, or a result not of the documented shape, as an error; the target runs once', async () => {
    const setup = await experiment(3);
    const results: unknown[] = [{ output: { count: 10n } }, { output: new Date(0) }, { outputs: 'typo' }];
    let next = 0;
    const harness = await serve(async () => results[next++] as never);
    const targetId = await registerTarget(harness.url);
    const types: Array<string | undefined> = [];
    for (const caseId of setup.caseIds) {
      const executionId = await dispatch(setup.experimentId, caseId, targetId);
      expect((await harness.answerFor(executionId)).body).toMatchObject({
        state: 'error',
        outcomeSaved: true,
      });
      const execution = await fx.client.getExecution(executionId);
      expect(execution.output).toBeUndefined();
      types.push(execution.error?.type);
    }
    expect(types).toEqual([
      'OutcomeSerializationError',
      'OutcomeSerializationError',
      'InvalidTargetResultError',
    ]);
    expect(harness.calls).toHaveLength(3);
  });

  it('retries a refused claim and outcome with the same idempotency keys', async () => {
    const setup = await experiment();
    const harness = await serve(async () => ({ output: 'after retries' }));
    fx.server.faults!.inject('evals.executions.claim', { kind: 'status', status: 503 }, 1);
    fx.server.faults!.inject('evals.executions.outcome', { kind: 'status', status: 503 }, 2);
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer = await harness.answerFor(executionId);
    expect(answer.status).toBe(200);
    expect(fx.server.faults!.pending('evals.executions.outcome')).toBe(0);
    expect(harness.calls).toHaveLength(1);
    expect((await fx.client.getExecution(executionId)).output).toBe('after retries');
  });

  it('answers 502 when the outcome cannot be saved within finalizationMillis; the claimed execution is never run again', async () => {
    const setup = await experiment();
    const harness = await serve(async () => ({ output: 'lost' }), { finalizationMillis: 600 });
    fx.server.faults!.inject('evals.executions.outcome', { kind: 'status', status: 503 }, 100);
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer: HandlerAnswer = await harness.answerFor(executionId);
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: { code: 'outcome_not_saved' } });
    expect(answer.checked).toBe('started');
    fx.server.faults!.clear();
    const replay = await harness.send(answer.request);
    expect(replay.status).toBe(409);
    expect(harness.calls).toHaveLength(1);
  });

  it('answers telemetryFlushed: false when flushTelemetry fails, and tells why on diag', async () => {
    const setup = await experiment();
    const harness = await serve(async () => ({ output: 'done' }), {
      flushTelemetry: async () => {
        throw new RangeError('export failed since the previous flush: 1 span failed');
      },
    });
    const executionId = await dispatchFirstCase(setup, harness.url);
    const answer = await harness.answerFor(executionId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ state: 'succeeded', outcomeSaved: true, telemetryFlushed: false });
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      [
        'warn',
        'svc-run: flushTelemetry failed after the outcome was saved: RangeError: export failed since the previous flush: 1 span failed',
      ],
    ]);
  });

  it('runs the target inside a root span of the tracer whose trace is the execution’s, ended before the flush', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const setup = await experiment();
    const flushed: number[] = [];
    const harness = await serve(async () => ({ output: 'traced' }), {
      tracer: provider.getTracer('managed-test'),
      flushTelemetry: () => {
        flushed.push(exporter.getFinishedSpans().length);
      },
    });
    const executionId = await dispatchFirstCase(setup, harness.url);
    expect((await harness.answerFor(executionId)).status).toBe(200);
    expect(flushed).toEqual([1]);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('eval.case');
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.spanContext().traceId).toBe(harness.calls[0]!.traceId);
    expect((await fx.client.getExecution(executionId)).traceExternalId).toBe(span!.spanContext().traceId);
    expect(span!.attributes).toMatchObject({
      'svc.eval.execution_id': executionId,
      'svc.eval.experiment_id': setup.experimentId,
      'svc.eval.case_id': setup.caseIds[0],
      'svc.eval.outcome': 'succeeded',
    });
    await provider.shutdown();
  });
});
