/**
 * JSON pointers (RFC 6901): escaping a token, and splitting a pointer into tokens.
 * @module
 */

/** `token` escaped for a JSON pointer (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  return token.includes('~') || token.includes('/')
    ? token.replaceAll('~', '~0').replaceAll('/', '~1')
    : token;
}

/** The tokens of `pointer`, or `undefined` when it is not a JSON pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  for (const token of tokens) {
    if (/~[^01]|~$/.test(token)) return undefined;
  }
  return tokens.map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}
