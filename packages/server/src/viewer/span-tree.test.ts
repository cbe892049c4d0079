import { describe, expect, it } from 'vitest';
import type { OutlineSpan } from '../read/read-model-types.js';
import { spanTree } from './span-tree.js';

function span(spanId: string, parentSpanId: string | null): OutlineSpan {
  return {
    spanId,
    parentSpanId,
    name: spanId,
    kind: 'INTERNAL',
    startTimeUnixNano: '0',
    endTimeUnixNano: '0',
    startTime: '1970-01-01T00:00:00.000Z',
    durationMs: 0,
    status: 'UNSET',
    error: false,
    eventCount: 0,
    logCount: 0,
    fileCount: 0,
  };
}

const order = (spans: OutlineSpan[]) => spanTree(spans).map((row) => `${row.span.spanId}@${row.depth}`);

describe('spanTree', () => {
  it('lists depth first, children in start order', () => {
    expect(
      order([span('r', null), span('a', 'r'), span('b', 'r'), span('a1', 'a'), span('b1', 'b')]),
    ).toEqual(['r@0', 'a@1', 'a1@2', 'b@1', 'b1@2']);
  });

  it('lists a span whose parent is not in the page as a root, and every span once', () => {
    expect(order([span('a', 'missing'), span('b', 'a'), span('r', null)])).toEqual(['a@0', 'b@1', 'r@0']);
  });

  it('lists spans whose parents form a cycle (no valid trace has one) once each, as roots', () => {
    expect(order([span('r', null), span('x', 'y'), span('y', 'x')])).toEqual(['r@0', 'x@0', 'y@1']);
  });

  it('walks a 10,000-deep chain without recursion', () => {
    const spans = [span('s0', null)];
    for (let i = 1; i < 10_000; i++) spans.push(span(`s${i}`, `s${i - 1}`));
    const rows = spanTree(spans);
    expect(rows).toHaveLength(10_000);
    expect(rows.at(-1)).toMatchObject({ depth: 9_999, children: 0 });
  });
});
