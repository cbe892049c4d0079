/**
 * The trace receipt (spec "Trace receipt"), read from the store: the one answer of
 * `GET /api/v1/traces/{otelTraceId}/receipt` and of the MCP tool `verify_trace`.
 * @module
 */
import type { TraceStore } from '../ingest/trace-store.js';
import { fieldsMap } from './record-fields.js';

/** A trace receipt. */
export interface TraceReceiptView {
  traceId: string;
  spanCount: number;
  revision: number;
  fields: Record<string, boolean>;
  matchedSpanIds: string[];
  missingSpanIds: string[];
  traceUrl: string;
}

/**
 * The receipt of trace `traceId` (32 lowercase hex) for `expectedSpanIds` (unique, 16 lowercase
 * hex), its `traceUrl` on `origin`; `undefined` when no write has touched the trace.
 */
export function traceReceipt(
  store: TraceStore,
  traceId: string,
  expectedSpanIds: readonly string[],
  origin: string,
): TraceReceiptView | undefined {
  const summary = store.getTraceSummary(traceId);
  if (summary === undefined) return undefined;
  const found = store.findSpanIds(traceId, expectedSpanIds);
  return {
    traceId,
    spanCount: summary.spanCount,
    revision: summary.revision,
    fields: fieldsMap(summary.fields),
    matchedSpanIds: expectedSpanIds.filter((id) => found.has(id)),
    missingSpanIds: expectedSpanIds.filter((id) => !found.has(id)),
    traceUrl: `${origin}/traces/${traceId}`,
  };
}
