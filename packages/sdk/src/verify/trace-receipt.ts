/**
 * The trace receipt of the spec's "Trace receipt".
 * @module
 */

/**
 * What the service stored of a trace. It confirms stored field presence and the requested span
 * IDs; it does not confirm payload correctness or that every span of a distributed trace arrived.
 */
export interface TraceReceipt {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** Number of stored spans. */
  spanCount: number;
  /** Stored-trace revision; grows with every accepted write touching the trace. */
  revision: number;
  /** Normalized field names (for example `input`, `output`, `model`) → presence. */
  fields: Record<string, boolean>;
  /** Expected span IDs found. */
  matchedSpanIds: string[];
  /** Expected span IDs not found. */
  missingSpanIds: string[];
  /** Link to the trace in the viewer. */
  traceUrl: string;
}

/** The result of `verifyTrace`. */
export interface TraceVerification {
  /** True when every expected span ID and every required field was found. */
  verified: boolean;
  /** The latest receipt read, or `null` when the trace was never found. */
  receipt: TraceReceipt | null;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isBooleanRecord(value: unknown): value is Record<string, boolean> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'boolean')
  );
}

/**
 * Reads a receipt body for `traceId`: a copy holding only the receipt's fields, or `undefined`
 * when the body is not a receipt of that trace.
 */
export function parseTraceReceipt(json: unknown, traceId: string): TraceReceipt | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const body = json as Record<string, unknown>;
  const { spanCount, revision, fields, matchedSpanIds, missingSpanIds, traceUrl } = body;
  if (
    body.traceId !== traceId ||
    !Number.isSafeInteger(spanCount) ||
    (spanCount as number) < 0 ||
    !Number.isSafeInteger(revision) ||
    !isBooleanRecord(fields) ||
    !isStringArray(matchedSpanIds) ||
    !isStringArray(missingSpanIds) ||
    typeof traceUrl !== 'string'
  ) {
    return undefined;
  }
  return {
    traceId,
    spanCount: spanCount as number,
    revision: revision as number,
    fields: Object.fromEntries(Object.entries(fields)),
    matchedSpanIds: [...matchedSpanIds],
    missingSpanIds: [...missingSpanIds],
    traceUrl,
  };
}
