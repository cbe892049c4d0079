import { beforeAll, describe, expect, it } from 'vitest';
import type { OutlineSpan, TraceOutline } from '../../read/read-model-types.js';
import { ingest } from '../../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../../test-support/otlp-fixtures.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';
import { at, wideTrace } from '../test-support/trace-builders.js';

const mcp = useMcp();
const SECRET = 'secret-prompt-text-51c';
const small = { traceId: '', rootId: '' };
const huge = { traceId: '' };

beforeAll(async () => {
  small.traceId = newTraceId();
  small.rootId = newSpanId();
  await ingest(
    mcp.fx.server,
    'traces',
    tracesRequest([
      jsonSpan(small.traceId, {
        spanId: small.rootId,
        name: 'agent run',
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(50),
      }),
      jsonSpan(small.traceId, {
        parentSpanId: small.rootId,
        name: 'chat gpt-4o',
        startTimeUnixNano: at(1),
        endTimeUnixNano: at(20),
        attributes: [
          str('gen_ai.request.model', 'gpt-4o'),
          str('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: SECRET }])),
          str('gen_ai.conversation.id', 'session-1'),
        ],
      }),
    ]),
  );
  huge.traceId = newTraceId();
  await ingest(mcp.fx.server, 'traces', wideTrace(huge.traceId, 10_000).request);
});

type Outline = TraceOutline & { traceId: string };

describe('get_trace', () => {
  it("answers the trace's outline as the read API does, whole, stating its size", async () => {
    const result = await mcp.call('get_trace', { trace_id: small.traceId });
    const answer = structured<Outline>(result);
    const api = await mcp.readApi<TraceOutline>(`/traces/${small.traceId}`);
    expect(answer.summary).toEqual(api.body.summary);
    expect(answer.spans).toEqual(api.body.spans);
    expect(answer.cuts).toEqual([]);
    expect(answer.size).toEqual({
      characters: resultCharacters(result),
      tokens: Math.ceil(resultCharacters(result) / 4),
      budgetTokens: 20_000,
    });
    // The outline holds no attribute values: nothing recorded leaves.
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).toContain(`Trace ${small.traceId}`);
    expect(text).toContain('Nothing was left out.');
  });

  it('answers a 10,000-span trace within the budget, saying how to page, and the pages hold every span once', async () => {
    const first = await mcp.call('get_trace', { trace_id: huge.traceId });
    const answer = structured<Outline>(first);
    expect(resultCharacters(first)).toBeLessThanOrEqual(80_000);
    expect(answer.size.tokens).toBeLessThanOrEqual(20_000);
    expect(answer.summary.spanCount).toBe(10_000);
    expect(answer.summary.errorCount).toBe(99);
    const [cut] = answer.cuts;
    expect(answer.cuts).toHaveLength(1);
    expect(cut).toMatchObject({
      kind: 'list',
      at: '/spans',
      from: answer.spans.length,
      items: 10_000 - answer.spans.length,
    });
    expect(cut!.tokens).toBeGreaterThan(100_000);
    expect(cut!.next).toEqual({
      tool: 'get_trace',
      arguments: { trace_id: huge.traceId, cursor: expect.any(String) },
    });
    const text = first.content[0]?.type === 'text' ? first.content[0].text : '';
    expect(text).toContain(JSON.stringify(cut!.next.arguments));

    // Following the cuts reads the whole outline, page by page, each within the budget.
    const spans: OutlineSpan[] = [...answer.spans];
    let next = cut?.next;
    let calls = 1;
    while (next !== undefined) {
      const page = await mcp.call(next.tool, next.arguments);
      const body = structured<Outline & { onlyList: string }>(page);
      expect(resultCharacters(page)).toBeLessThanOrEqual(80_000);
      expect(body.onlyList).toBe('/spans');
      expect(body.summary.spanCount).toBe(10_000);
      if (calls === 1) {
        // The same spans the read API lists from there.
        const api = await mcp.readApi<TraceOutline>(
          `/traces/${huge.traceId}?after=${spans.length}&limit=${body.spans.length}`,
        );
        expect(body.spans).toEqual(api.body.spans);
      }
      spans.push(...body.spans);
      next = body.cuts.find((c) => c.at === '/spans')?.next;
      calls++;
      expect(calls).toBeLessThan(100);
    }
    const whole = await mcp.readApi<TraceOutline>(`/traces/${huge.traceId}`);
    expect(spans).toEqual(whole.body.spans);
  });

  it('fits a lower budget given with max_tokens', async () => {
    const result = await mcp.call('get_trace', { trace_id: huge.traceId, max_tokens: 2_000 });
    const answer = structured<Outline>(result);
    expect(resultCharacters(result)).toBeLessThanOrEqual(8_000);
    expect(answer.size.budgetTokens).toBe(2_000);
    expect(answer.cuts[0]?.next.arguments).toMatchObject({ max_tokens: 2_000 });
  });

  it('answers an unknown trace with an error saying so', async () => {
    const text = errorText(await mcp.call('get_trace', { trace_id: newTraceId() }));
    expect(text).toBe('No spans or logs of this trace are stored (yet).');
  });

  it.each([
    [{ trace_id: 'not-a-trace' }, 'must be 32 lowercase hex characters at trace_id'],
    [{ trace_id: '0'.repeat(32) }, 'must not be all zero at trace_id'],
    [{ traceId: 'a'.repeat(32) }, 'trace_id'],
    [{ trace_id: 'a'.repeat(32), max_tokens: 100 }, 'max_tokens'],
    [{ trace_id: 'a'.repeat(32), extra: true }, 'extra'],
    [{ trace_id: 'a'.repeat(32), cursor: 'garbage!' }, 'cursor: not a cursor of this tool'],
  ])('refuses bad arguments %j with a clear error', async (args, message) => {
    const text = errorText(await mcp.call('get_trace', { ...args }));
    expect(text).toContain(message);
    expect(text).not.toContain(mcp.fx.server.keys.mcp);
  });

  it("refuses another tool's cursor", async () => {
    // A cursor of search_traces (a page of the read model's search).
    const foreign = Buffer.from(JSON.stringify({ page: '1_2' })).toString('base64url');
    const text = errorText(await mcp.call('get_trace', { trace_id: small.traceId, cursor: foreign }));
    expect(text).toContain('not a cursor of get_trace');
  });
});
