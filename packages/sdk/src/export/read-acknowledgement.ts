/**
 * Reads an OTLP/HTTP JSON export response: how many records the service refused
 * (`partialSuccess.rejectedSpans` / `rejectedLogRecords`), and whether it sent a warning (an
 * `errorMessage` with nothing refused). The message itself is never kept: it is the service's.
 * @module
 */
import type { Signal } from './export-accounting.js';

/** A readable acknowledgement. */
export interface Acknowledgement {
  rejected: number;
  warning: boolean;
}

const REJECTED_FIELD: Record<Signal, string> = { traces: 'rejectedSpans', logs: 'rejectedLogRecords' };

function count(value: unknown): number | undefined {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The acknowledgement in `body`, or `undefined` when it is not an OTLP export response. */
export function readAcknowledgement(
  signal: Signal,
  body: Uint8Array | undefined,
): Acknowledgement | undefined {
  if (body === undefined) return undefined;
  if (body.byteLength === 0) return { rejected: 0, warning: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return undefined; // not JSON: an `invalid` issue says so (never quoting the body)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const partial = (parsed as { partialSuccess?: unknown }).partialSuccess;
  if (partial === undefined || partial === null) return { rejected: 0, warning: false };
  if (typeof partial !== 'object' || Array.isArray(partial)) return undefined;
  const rejected = count((partial as Record<string, unknown>)[REJECTED_FIELD[signal]]);
  if (rejected === undefined) return undefined;
  const message = (partial as { errorMessage?: unknown }).errorMessage;
  return { rejected, warning: rejected === 0 && typeof message === 'string' && message !== '' };
}
