/**
 * Reads the machine-readable code of the service's JSON error bodies.
 * @module
 */

/**
 * The `error.code` of a body `{ "error": { "code", "message" } }`, or `undefined`. Only the code is
 * read: the message is never shown to callers (it is a server body).
 */
export function serviceErrorCode(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
