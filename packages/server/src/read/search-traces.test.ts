import { beforeAll, describe, expect, it } from 'vitest';
import { call, ingest } from '../test-support/media-fixtures.js';
import { int, jsonSpan, newSpanId, newTraceId, str } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();

const T0 = 1_763_740_800_000_000_000n; // 2025-11-21T16:00:00Z
const at = (seconds: number) => String(T0 + BigInt(seconds) * 1_000_000_000n);

interface Seeded {
  traceId: string;
  index: number;
}

/**
 * 40 traces, trace i starting at T0 + i minutes: every 3rd in session `s-<i % 3>`; users by
 * parity; model gpt-4o on even, claude on odd; every 5th has an error; duration i seconds; service
 * `svc-a` for i < 20 else `svc-b`; span names `checkout <i>` and `retrieve docs`; an attribute
 * `tenant = t<i % 4>`.
 */
const seeded: Seeded[] = [];

function traceRequest(i: number, traceId: string) {
  const start = i * 60;
  const root = newSpanId();
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [
            str('service.name', i < 20 ? 'svc-a' : 'svc-b'),
            str('deployment.environment', 'prod'),
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: [
              jsonSpan(traceId, {
                spanId: root,
                name: `checkout ${i}`,
                kind: 2,
                startTimeUnixNano: at(start),
                endTimeUnixNano: at(start + i),
                attributes: [
                  str('gen_ai.conversation.id', `s-${i % 3}`),
                  str('user.id', i % 2 === 0 ? 'even-user' : 'odd-user'),
                  str('tenant', `t${i % 4}`),
                  int('order.items', i),
                ],
                ...(i % 5 === 0 ? { status: { code: 2 } } : {}),
              }),
              jsonSpan(traceId, {
                parentSpanId: root,
                name: 'retrieve docs',
                startTimeUnixNano: at(start),
                endTimeUnixNano: at(start + 1),
                attributes: [
                  str('gen_ai.request.model', i % 2 === 0 ? 'gpt-4o' : 'claude-sonnet-4-5'),
                  int('gen_ai.usage.input_tokens', 10 * i),
                  int('gen_ai.usage.output_tokens', i),
                ],
              }),
            ],
          },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  for (let i = 0; i < 40; i++) {
    const traceId = newTraceId();
    seeded.push({ traceId, index: i });
    await ingest(fx.server, 'traces', traceRequest(i, traceId));
  }
});

interface Page {
  items: {
    traceId: string;
    rootName: string;
    spanCount: number;
    errorCount: number;
    durationMs: number;
    inputTokens: number;
    outputTokens: number;
    sessions: string[];
    users: string[];
    startTime: string;
  }[];
  nextCursor: string | null;
}

async function search(
  query: Record<string, string>,
  key = fx.server.keys.read,
): Promise<{ status: number; body: Page & { error?: { message: string } } }> {
  const res = await call(fx.server, `/api/v1/traces?${new URLSearchParams(query)}`, { key });
  return { status: res.status, body: (await res.json()) as Page & { error?: { message: string } } };
}

/** The seeded trace indexes a query finds, newest first (all pages, 100 at a time). */
async function found(query: Record<string, string>): Promise<number[]> {
  const indexes: number[] = [];
  let after: string | null = null;
  do {
    const { status, body } = await search({ ...query, limit: '100', ...(after ? { after } : {}) });
    expect(status).toBe(200);
    for (const item of body.items) {
      const hit = seeded.find((s) => s.traceId === item.traceId);
      if (hit !== undefined) indexes.push(hit.index);
    }
    after = body.nextCursor;
  } while (after !== null);
  return indexes;
}

const indexes = (predicate: (i: number) => boolean) =>
  Array.from({ length: 40 }, (_, i) => 39 - i).filter(predicate);

describe('searchTraces (GET /api/v1/traces)', () => {
  it('lists traces newest first with their summary', async () => {
    const { body } = await search({ service: 'svc-b', limit: '2' });
    const newest = seeded[39]!;
    expect(body.items[0]).toEqual({
      traceId: newest.traceId,
      rootName: 'checkout 39',
      startTime: new Date(Number((T0 + 39n * 60n * 1_000_000_000n) / 1_000_000n)).toISOString(),
      startTimeUnixNano: at(39 * 60),
      durationMs: 39_000,
      spanCount: 2,
      errorCount: 0,
      inputTokens: 390,
      outputTokens: 39,
      sessions: ['s-0'],
      users: ['odd-user'],
    });
    expect(body.items[1]?.traceId).toBe(seeded[38]!.traceId);
  });

  it('filters by each field, alone and together', async () => {
    expect(await found({ service: 'svc-a' })).toEqual(indexes((i) => i < 20));
    expect(await found({ sessionId: 's-1' })).toEqual(indexes((i) => i % 3 === 1));
    expect(await found({ userId: 'even-user' })).toEqual(indexes((i) => i % 2 === 0));
    expect(await found({ model: 'claude-sonnet-4-5' })).toEqual(indexes((i) => i % 2 === 1));
    expect(await found({ hasError: 'true' })).toEqual(indexes((i) => i % 5 === 0));
    expect(await found({ hasError: 'false', service: 'svc-a' })).toEqual(
      indexes((i) => i % 5 !== 0 && i < 20),
    );
    expect(await found({ minDurationMs: '30000' })).toEqual(indexes((i) => i >= 30));
    expect(await found({ attributeKey: 'tenant', attributeValue: 't3' })).toEqual(
      indexes((i) => i % 4 === 3),
    );
    expect(await found({ attributeKey: 'order.items', attributeValue: '7' })).toEqual([7]);
    expect(
      await found({ attributeKey: 'deployment.environment', attributeValue: 'prod', userId: 'odd-user' }),
    ).toEqual(indexes((i) => i % 2 === 1));
    expect(await found({ spanName: 'CHECKOUT 1' })).toEqual(indexes((i) => String(i).startsWith('1')));
    expect(await found({ spanName: 'ut 3' })).toEqual(indexes((i) => String(i).startsWith('3')));
    expect(await found({ spanName: 'retrieve', model: 'gpt-4o', sessionId: 's-0' })).toEqual(
      indexes((i) => i % 2 === 0 && i % 3 === 0),
    );
    const from = new Date(Number(T0 / 1_000_000n) + 10 * 60_000).toISOString();
    const to = new Date(Number(T0 / 1_000_000n) + 15 * 60_000).toISOString();
    expect(await found({ from, to })).toEqual([14, 13, 12, 11, 10]);
    expect(await found({ spanName: 'no such span' })).toEqual([]);
    expect(await found({ sessionId: 'no-such-session' })).toEqual([]);
  });

  it('pages with a cursor: every trace once, in order', async () => {
    const pages: string[] = [];
    let after: string | null = null;
    do {
      const { body } = await search({ service: 'svc-a', limit: '7', ...(after ? { after } : {}) });
      expect(body.items.length).toBeLessThanOrEqual(7);
      pages.push(...body.items.map((item) => item.traceId));
      after = body.nextCursor;
    } while (after !== null);
    expect(pages).toEqual(indexes((i) => i < 20).map((i) => seeded[i]!.traceId));
  });

  it('finds a trace as soon as its spans are stored', async () => {
    const traceId = newTraceId();
    await ingest(fx.server, 'traces', {
      resourceSpans: [
        {
          resource: { attributes: [str('service.name', 'svc-new')] },
          scopeSpans: [{ spans: [jsonSpan(traceId, { name: 'fresh' })] }],
        },
      ],
    });
    const { body } = await search({ service: 'svc-new' });
    expect(body.items.map((item) => item.traceId)).toEqual([traceId]);
  });

  it('refuses bad filters, cursors and limits with a message naming the parameter', async () => {
    for (const [query, words] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ after: 'not-a-cursor' }, 'after'],
      [{ from: 'yesterday' }, 'from'],
      [{ hasError: 'maybe' }, 'hasError'],
      [{ minDurationMs: '-1' }, 'minDurationMs'],
    ] as [Record<string, string>, string][]) {
      const { status, body } = await search(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error?.message).toContain(words);
    }
  });

  it('answers 422 for an attribute key without a value (a rule the OpenAPI document cannot state)', async () => {
    for (const query of [{ attributeKey: 'tenant' }, { attributeValue: 't1' }] as Record<string, string>[]) {
      const { status, body } = await search(query);
      expect(status).toBe(422);
      expect(body.error?.message).toContain('attributeKey and attributeValue go together');
    }
  });

  it('answers Read and Read-and-write keys only', async () => {
    expect((await search({}, fx.server.keys.readWrite)).status).toBe(200);
    for (const key of [fx.server.keys.tracing, fx.server.keys.setup, fx.server.keys.machine]) {
      expect((await search({}, key)).status).toBe(403);
    }
  });
});
