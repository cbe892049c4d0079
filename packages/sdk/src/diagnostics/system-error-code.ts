/**
 * The system error code of a failed file or network operation (`ENOENT`, `EACCES`,
 * `ECONNRESET`…): a short, key-free and content-free reason for messages, where the error's own
 * message would name the file's path.
 * @module
 */

const SYSTEM_CODE = /^E[A-Z0-9_]{1,31}$/;

/** `error.code` when it is a system error code, else `undefined`. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && SYSTEM_CODE.test(code) ? code : undefined;
}
