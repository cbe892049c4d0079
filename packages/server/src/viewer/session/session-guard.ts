/**
 * Reading the session of a viewer request, and where a page without one goes: to the login page,
 * which comes back to the page (`next`) once logged in. The cookie is SameSite=Strict, so a
 * browser leaves it off a navigation started on another site (a trace link clicked in a chat):
 * such a request is answered with a page that reloads the same URL from this origin, which
 * carries the cookie, before the login page is shown.
 * @module
 */
import type { Context } from 'hono';
import type { ViewerOptions } from '../viewer-options.js';
import { isHttps, sessionIdOf } from './session-cookie.js';
import type { ViewerSession } from './viewer-sessions.js';

/** The request's live session, or `undefined`. */
export function sessionOf(c: Context, options: ViewerOptions): ViewerSession | undefined {
  return options.sessions.find(sessionIdOf(c, isHttps(c, options.publicOrigin)));
}

/**
 * The path (and query) a login may return to: a viewer page of this origin (`/traces…`,
 * `/experiments…`, `/scenarios…`), else `/traces`. Anything else — another origin, `//host`, a backslash trick — is replaced.
 */
export function safeNext(next: string | undefined): string {
  if (next === undefined || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) {
    return '/traces';
  }
  try {
    const base = 'http://viewer.invalid';
    const url = new URL(next, base);
    if (url.origin !== base || !/^\/(?:traces|experiments|scenarios)(\/|$)/.test(url.pathname))
      return '/traces';
    return `${url.pathname}${url.search}`;
  } catch {
    return '/traces';
  }
}

/** The page's own path and query, to come back to after logging in. */
export function hereOf(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Whether a request without a session should be answered with the same-origin reload (see the
 * module comment): a top-level navigation started on another site.
 */
export function crossSiteNavigation(c: Context): boolean {
  return c.req.header('sec-fetch-site') === 'cross-site' && c.req.header('sec-fetch-mode') === 'navigate';
}
