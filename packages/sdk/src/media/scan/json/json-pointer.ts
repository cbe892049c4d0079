/**
 * JSON pointers (RFC 6901) as the scanner writes them in `svc.blobs` keys.
 * @module
 */

/** Escapes one reference token: `~` → `~0`, `/` → `~1`. */
export function escapePointerToken(token: string): string {
  if (token.indexOf('~') < 0 && token.indexOf('/') < 0) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of `tokens` (array indexes as numbers, member names as strings); `''` for none. */
export function formatPointer(tokens: readonly (string | number)[]): string {
  let pointer = '';
  for (const token of tokens) pointer += `/${typeof token === 'number' ? token : escapePointerToken(token)}`;
  return pointer;
}

/** The reference tokens of `pointer`, or `undefined` when it is not a JSON pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}
