/**
 * The handler's HTTP answers: JSON, errors as `{ "error": { "code", "message" } }` like the
 * service's. Messages are the handler's own: never a key, a service body or recorded content.
 * @module
 */

/** Codes of the handler's error answers. */
export type ManagedErrorCode =
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unauthorized'
  | 'invalid_request'
  | 'not_found'
  | 'already_claimed'
  | 'conflict'
  | 'claim_failed'
  | 'outcome_not_saved'
  | 'internal';

/** A JSON answer. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** An error answer. */
export function errorResponse(
  status: number,
  code: ManagedErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { error: { code, message } }, headers);
}
