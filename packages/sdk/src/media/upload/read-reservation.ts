/**
 * Reads the answer of the reservation route (`POST /api/v1/otlp/blobs`): either the trace already
 * holds the bytes, or where and how to PUT them.
 * @module
 */

/** A valid reservation answer. */
export type Reservation =
  | { status: 'exists' }
  | { status: 'upload'; url: string; headers: Record<string, string> };

/** The reservation in `json`, or `undefined` when it is not a valid answer. */
export function readReservation(json: unknown): Reservation | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const answer = json as { status?: unknown; url?: unknown; method?: unknown; headers?: unknown };
  if (answer.status === 'exists') return { status: 'exists' };
  if (answer.status !== 'upload' || typeof answer.url !== 'string') return undefined;
  if (answer.method !== undefined && answer.method !== 'PUT') return undefined;
  let url: URL;
  try {
    url = new URL(answer.url);
  } catch {
    return undefined; // the service's answer is not a reservation: the uploader says so
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const headers: Record<string, string> = {};
  if (answer.headers !== undefined) {
    if (typeof answer.headers !== 'object' || answer.headers === null || Array.isArray(answer.headers)) {
      return undefined;
    }
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value !== 'string' || name.toLowerCase() === 'authorization') return undefined;
      headers[name] = value;
    }
  }
  return { status: 'upload', url: answer.url, headers };
}
