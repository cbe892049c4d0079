import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceReceiptView } from '../../receipt/trace-receipt.js';
import { ingest } from '../../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../../test-support/otlp-fixtures.js';
import type { McpSources } from '../mcp-sources.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';
import type { PollClock } from './poll-until.js';
import { verifyTraceTool } from './verify-trace-tool.js';

const mcp = useMcp();
const t = { traceId: '', spanId: '' };

beforeAll(async () => {
  t.traceId = newTraceId();
  t.spanId = newSpanId();
  await ingest(
    mcp.fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, { spanId: t.spanId, attributes: [str('gen_ai.request.model', 'gpt-4o')] }),
    ]),
  );
});

type Verification = { verified: boolean; receipt: TraceReceiptView | null };

function sources(): McpSources {
  const { server } = mcp.fx;
  return { readModel: server.readModel, traceStore: server.traceStore, files: server.files };
}

/** A clock that only moves when slept on; `onSleep` runs at each sleep (before time moves). */
function virtualClock(onSleep: (slept: number) => Promise<void> = async () => undefined) {
  const clock = {
    time: 0,
    sleeps: [] as number[],
    now: () => clock.time,
    async sleep(millis: number) {
      clock.sleeps.push(millis);
      await onSleep(clock.sleeps.length);
      clock.time += millis;
    },
  };
  return clock satisfies PollClock;
}

describe('verify_trace', () => {
  it('answers the receipt the receipt route answers, and verified', async () => {
    const answer = structured<Verification>(
      await mcp.call('verify_trace', {
        trace_id: t.traceId,
        expected_span_ids: [t.spanId],
        required_fields: ['model'],
      }),
    );
    const route = await mcp.fx.receipt(t.traceId, [t.spanId]);
    expect(answer.verified).toBe(true);
    expect(answer.receipt).toEqual(await route.json());
    expect(answer.cuts).toEqual([]);
  });

  it('answers verified: false with the receipt when a required field is missing at the timeout', async () => {
    const answer = structured<Verification>(
      await mcp.call('verify_trace', { trace_id: t.traceId, required_fields: ['output'], timeout_ms: 1 }),
    );
    expect(answer.verified).toBe(false);
    expect(answer.receipt).toMatchObject({
      traceId: t.traceId,
      spanCount: 1,
      fields: { model: true, output: false },
    });
  });

  it('fits its largest answer (100 missing span IDs) in the smallest budget', async () => {
    const expected = Array.from({ length: 100 }, () => newSpanId());
    const result = await mcp.call('verify_trace', {
      trace_id: t.traceId,
      expected_span_ids: expected,
      timeout_ms: 1,
      max_tokens: 2_000,
    });
    const answer = structured<Verification>(result);
    expect(answer.receipt?.missingSpanIds).toEqual(expected);
    expect(answer.cuts).toEqual([]);
    expect(resultCharacters(result)).toBeLessThanOrEqual(8_000);
  });

  it('answers verified: false and no receipt for a trace never stored', async () => {
    const answer = structured<Verification>(
      await mcp.call('verify_trace', { trace_id: newTraceId(), timeout_ms: 1 }),
    );
    expect(answer).toMatchObject({ verified: false, receipt: null });
  });

  it('waits for a span still on its way (over HTTP)', async () => {
    const traceId = newTraceId();
    const [early, late] = [newSpanId(), newSpanId()];
    await ingest(mcp.fx.server, 'traces', tracesRequest([jsonSpan(traceId, { spanId: early })]));
    const verifying = mcp.call('verify_trace', {
      trace_id: traceId,
      expected_span_ids: [early, late],
      timeout_ms: 25_000,
    });
    await ingest(mcp.fx.server, 'traces', tracesRequest([jsonSpan(traceId, { spanId: late })]));
    const answer = structured<Verification>(await verifying);
    expect(answer.verified).toBe(true);
    expect(answer.receipt?.missingSpanIds).toEqual([]);
  });

  it('polls the store until the missing span is stored, then answers verified', async () => {
    const traceId = newTraceId();
    const [early, late] = [newSpanId(), newSpanId()];
    await ingest(mcp.fx.server, 'traces', tracesRequest([jsonSpan(traceId, { spanId: early })]));
    // The late span arrives while the tool waits, at its second wait.
    const clock = virtualClock(async (sleeps) => {
      if (sleeps === 2)
        await ingest(mcp.fx.server, 'traces', tracesRequest([jsonSpan(traceId, { spanId: late })]));
    });
    const tool = verifyTraceTool(sources(), { origin: mcp.fx.server.origin }, clock);
    const result = await tool.run(
      { trace_id: traceId, expected_span_ids: [early, late], timeout_ms: 10_000 },
      new AbortController().signal,
    );
    expect(structured<Verification>(result)).toMatchObject({
      verified: true,
      receipt: { missingSpanIds: [] },
    });
    expect(clock.sleeps).toHaveLength(2);
  });

  it('never waits longer than its timeout', async () => {
    const traceId = newTraceId();
    const clock = virtualClock();
    const tool = verifyTraceTool(sources(), { origin: mcp.fx.server.origin }, clock);
    const result = await tool.run(
      { trace_id: traceId, expected_span_ids: [newSpanId()], timeout_ms: 2_000 },
      new AbortController().signal,
    );
    expect(structured<Verification>(result)).toMatchObject({ verified: false, receipt: null });
    expect(clock.sleeps.reduce((sum, millis) => sum + millis, 0)).toBe(2_000);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(500);
    // Without a timeout: 10 s.
    const fallback = virtualClock();
    await verifyTraceTool(sources(), { origin: mcp.fx.server.origin }, fallback).run(
      { trace_id: traceId },
      new AbortController().signal,
    );
    expect(fallback.sleeps.reduce((sum, millis) => sum + millis, 0)).toBe(10_000);
  });

  it('stops waiting when the call is cancelled', async () => {
    const stop = new AbortController();
    const clock = virtualClock(async (sleeps) => {
      if (sleeps === 3) stop.abort();
    });
    const tool = verifyTraceTool(sources(), { origin: mcp.fx.server.origin }, clock);
    await tool.run({ trace_id: newTraceId(), timeout_ms: 60_000 }, stop.signal);
    expect(clock.sleeps).toHaveLength(3);
  });

  it.each([
    [
      { expected_span_ids: Array.from({ length: 101 }, () => newSpanId()) },
      'expected_span_ids: at most 100 unique span IDs; got 101.',
    ],
    [{ expected_span_ids: ['xyz'] }, 'must be 16 lowercase hex characters at expected_span_ids[0]'],
    [
      { required_fields: ['model', 'model'] },
      'required_fields: each field once; model is given more than once.',
    ],
    [{ required_fields: ['color'] }, 'required_fields'],
    [{ timeout_ms: 0 }, 'timeout_ms'],
    [{ timeout_ms: 60_001 }, 'timeout_ms'],
  ])('refuses bad arguments %#', async (args, message) => {
    const text = errorText(await mcp.call('verify_trace', { trace_id: t.traceId, ...args }));
    expect(text).toContain(message);
  });
});
