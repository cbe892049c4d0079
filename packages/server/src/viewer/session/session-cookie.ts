/**
 * The viewer's session cookie: HttpOnly, SameSite=Strict, Path=/, ending with the session; on
 * HTTPS also Secure, under the `__Host-` prefix (no Domain, Path=/, Secure: the browser refuses
 * it from anything but this host over HTTPS).
 * @module
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/** The cookie's name over plain HTTP. */
export const SESSION_COOKIE = 'svc_viewer_session';

/** Whether the viewer is reached over HTTPS: its public origin's scheme or the request's is `https:`. */
export function isHttps(c: Context, publicOrigin: string | undefined): boolean {
  return (
    new URL(c.req.url).protocol === 'https:' ||
    (publicOrigin !== undefined && new URL(publicOrigin).protocol === 'https:')
  );
}

function cookieName(secure: boolean): string {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** The session ID the request presents, if any. */
export function sessionIdOf(c: Context, secure: boolean): string | undefined {
  return getCookie(c, cookieName(secure));
}

/** Sets the session cookie on the response. */
export function setSessionCookie(
  c: Context,
  secure: boolean,
  id: string,
  expiresAt: number,
  now: number,
): void {
  setCookie(c, cookieName(secure), id, {
    path: '/',
    httpOnly: true,
    sameSite: 'Strict',
    secure,
    maxAge: Math.max(1, Math.floor((expiresAt - now) / 1000)),
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context, secure: boolean): void {
  deleteCookie(c, cookieName(secure), { path: '/', httpOnly: true, sameSite: 'Strict', secure });
}
