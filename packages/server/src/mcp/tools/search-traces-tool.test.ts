import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TracePage } from '../../read/search-traces.js';
import { ingest } from '../../test-support/media-fixtures.js';
import { jsonSpan, newTraceId, str, tracesRequest } from '../../test-support/otlp-fixtures.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';
import { at } from '../test-support/trace-builders.js';
import { encodeCursor } from '../tool-cursor.js';

const mcp = useMcp();
const run = randomUUID().slice(0, 8);
const service = `search-${run}`;
const SECRET = 'secret-search-content-77a';

function request(traceId: string, index: number, session: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', service)] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: [
              jsonSpan(traceId, {
                name: `run ${index}`,
                startTimeUnixNano: at(index * 1_000),
                endTimeUnixNano: at(index * 1_000 + 10),
                attributes: [str('gen_ai.conversation.id', session), str('gen_ai.input.messages', SECRET)],
              }),
            ],
          },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  // 40 traces of one service, each with a long session ID (about 1,000 characters).
  for (let i = 0; i < 40; i++) {
    await ingest(mcp.fx.server, 'traces', request(newTraceId(), i, `session-${i}-${'s'.repeat(1_000)}`));
  }
  await ingest(mcp.fx.server, 'traces', tracesRequest([jsonSpan(newTraceId())]));
});

type Page = TracePage & { nextPage?: { tool: string; arguments: Record<string, unknown> } };

describe('search_traces', () => {
  it('answers the page the read API answers, newest first, and says how to get the next one', async () => {
    const result = await mcp.call('search_traces', { service, limit: 5 });
    const answer = structured<Page>(result);
    const api = await mcp.readApi<TracePage>(`/traces?service=${service}&limit=5`);
    expect(answer.items).toEqual(api.body.items);
    expect(answer.items.map((item) => item.rootName)).toEqual([
      'run 39',
      'run 38',
      'run 37',
      'run 36',
      'run 35',
    ]);
    expect(answer.cuts).toEqual([]);
    expect(answer.nextPage).toEqual({
      tool: 'search_traces',
      arguments: { service, limit: 5, cursor: expect.any(String) },
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);

    const second = structured<Page>(await mcp.call('search_traces', answer.nextPage!.arguments));
    const apiSecond = await mcp.readApi<TracePage>(
      `/traces?service=${service}&limit=5&after=${api.body.nextCursor}`,
    );
    expect(second.items).toEqual(apiSecond.body.items);
  });

  it('cuts a page over the budget, and the cut continues it exactly', async () => {
    const result = await mcp.call('search_traces', { service, limit: 40, max_tokens: 2_000 });
    expect(resultCharacters(result)).toBeLessThanOrEqual(8_000);
    const answer = structured<Page>(result);
    expect(answer.nextPage).toBeUndefined();
    const [cut] = answer.cuts;
    expect(cut).toMatchObject({
      kind: 'list',
      at: '/items',
      from: answer.items.length,
      items: 40 - answer.items.length,
    });
    const items = [...answer.items];
    let next = cut?.next;
    while (next !== undefined) {
      const page = structured<Page>(await mcp.call(next.tool, next.arguments));
      expect(page.size.characters).toBeLessThanOrEqual(8_000);
      items.push(...page.items);
      next = page.cuts[0]?.next ?? page.nextPage;
    }
    const api = await mcp.readApi<TracePage>(`/traces?service=${service}&limit=100`);
    expect(items).toEqual(api.body.items);
  });

  it('answers no traces for a filter nothing matches', async () => {
    const answer = structured<Page>(await mcp.call('search_traces', { service: 'nobody', has_error: true }));
    expect(answer.items).toEqual([]);
    expect(answer.nextPage).toBeUndefined();
  });

  it.each([
    [{ from: 'yesterday' }, 'from'],
    [{ attribute_key: 'tenant' }, 'attribute_key and attribute_value go together'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ span_name: '' }, 'span_name'],
    [{ serviceName: 'x' }, 'serviceName'],
    [{ cursor: encodeCursor({ list: '/spans', from: 3 }) }, 'not a cursor of search_traces'],
    [{ cursor: encodeCursor({ page: 'not-a-cursor' }) }, 'after: must be a nextCursor of a previous page.'],
  ])('refuses bad arguments %j with a clear error', async (args, message) => {
    const text = errorText(await mcp.call('search_traces', args));
    expect(text).toContain(message);
  });
});
