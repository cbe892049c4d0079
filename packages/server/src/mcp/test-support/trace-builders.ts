/**
 * Test support: traces for the MCP tools' tests, built as OTLP JSON export requests.
 * @module
 */
import { jsonSpan, newSpanId, str, tracesRequest } from '../../test-support/otlp-fixtures.js';

const T0 = 1_763_740_800_000_000_000n;

/** Decimal Unix nanoseconds `millis` after a fixed start. */
export function at(millis: number): string {
  return String(T0 + BigInt(millis) * 1_000_000n);
}

/**
 * A trace of `count` spans: a root and `count - 1` children in start order, each with a model and
 * token counts, every 100th failing. Returns the request and the root's span ID.
 */
export function wideTrace(traceId: string, count: number): { request: unknown; rootId: string } {
  const rootId = newSpanId();
  const spans = [
    jsonSpan(traceId, {
      spanId: rootId,
      name: 'agent run',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(count + 10),
    }),
  ];
  for (let i = 1; i < count; i++) {
    spans.push(
      jsonSpan(traceId, {
        parentSpanId: rootId,
        name: `chat step ${i}`,
        startTimeUnixNano: at(i),
        endTimeUnixNano: at(i + 1),
        attributes: [
          str('gen_ai.operation.name', 'chat'),
          str('gen_ai.request.model', 'gpt-4o-mini'),
          { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } },
          { key: 'gen_ai.usage.output_tokens', value: { intValue: '3' } },
        ],
        ...(i % 100 === 0 ? { status: { code: 2 } } : {}),
      }),
    );
  }
  return { request: tracesRequest(spans), rootId };
}
