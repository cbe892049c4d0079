/**
 * One-time login links: `svc serve` and the demo print one; opened once within 15 minutes, it
 * opens a Read session in that browser and lands on the page it names. It carries a random token
 * (never a key), used up on first use.
 * @module
 */
import { safeNext } from './session-guard.js';
import type { ViewerSessions } from './viewer-sessions.js';

/** The path a login link is served at. */
export const LOGIN_LINK_PATH = '/login/link';

/** A new one-time login link on `origin`, landing on `path` (a viewer page; `/traces` by default). */
export function loginLink(sessions: ViewerSessions, origin: string, path = '/traces'): string {
  const { token } = sessions.loginToken();
  const params = new URLSearchParams({ token });
  const next = safeNext(path);
  if (next !== '/traces') params.set('next', next);
  return `${origin}${LOGIN_LINK_PATH}?${params}`;
}
