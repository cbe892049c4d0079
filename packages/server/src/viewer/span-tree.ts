/**
 * The order the trace page lists spans in: depth first from each root, children in start order
 * (the outline's order). A span whose parent is not in the page is a root; a span reached from
 * no root (parents in a cycle, which no valid trace has) is listed after them as a root too, so
 * every span of the page is listed once.
 * @module
 */
import type { OutlineSpan } from '../read/read-model-types.js';

/** A span as the tree lists it. */
export interface TreeRow {
  span: OutlineSpan;
  depth: number;
  /** Its children in this page. */
  children: number;
}

/** The spans of an outline page as tree rows (iterative: a 10,000-span chain is fine). */
export function spanTree(spans: readonly OutlineSpan[]): TreeRow[] {
  const inPage = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, OutlineSpan[]>();
  const roots: OutlineSpan[] = [];
  for (const span of spans) {
    if (span.parentSpanId === null || !inPage.has(span.parentSpanId)) {
      roots.push(span);
      continue;
    }
    const list = children.get(span.parentSpanId);
    if (list === undefined) children.set(span.parentSpanId, [span]);
    else list.push(span);
  }
  const rows: TreeRow[] = [];
  const listed = new Set<string>();
  const walk = (root: OutlineSpan) => {
    const stack: { span: OutlineSpan; depth: number }[] = [{ span: root, depth: 0 }];
    while (stack.length > 0) {
      const { span, depth } = stack.pop()!;
      if (listed.has(span.spanId)) continue;
      listed.add(span.spanId);
      const kids = children.get(span.spanId) ?? [];
      rows.push({ span, depth, children: kids.length });
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ span: kids[i]!, depth: depth + 1 });
    }
  };
  for (const root of roots) walk(root);
  for (const span of spans) if (!listed.has(span.spanId)) walk(span);
  return rows;
}
