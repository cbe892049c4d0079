/**
 * Test support for the viewer: logging in through the login form in-process, and requests that
 * carry the session cookie. Not part of the package's public API.
 * @module
 */
import type { RunningServer } from '../start-server.js';

/** The `name=value` of the session cookie a response sets, or `undefined`. */
export function sessionCookieOf(res: Response): string | undefined {
  const setCookie = res.headers.get('set-cookie') ?? '';
  const match = /((?:__Host-)?svc_viewer_session=[^;]*)/.exec(setCookie);
  return match?.[1];
}

/** Posts the login form with `key` (same-origin, as a browser does); returns the answer. */
export function postLogin(
  server: RunningServer,
  key: string,
  options: { next?: string; origin?: string; base?: string } = {},
): Promise<Response> {
  const base = options.base ?? server.origin;
  const body = new URLSearchParams({ key, ...(options.next === undefined ? {} : { next: options.next }) });
  return Promise.resolve(
    server.app.request(`${base}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: options.origin ?? new URL(base).origin,
      },
      body: body.toString(),
    }),
  );
}

/** Logs in with `key` (the Read key by default) and returns the session cookie. */
export async function logIn(server: RunningServer, key = server.keys.read): Promise<string> {
  const res = await postLogin(server, key);
  const cookie = sessionCookieOf(res);
  if (res.status !== 303 || cookie === undefined) throw new Error(`login answered ${res.status}`);
  return cookie;
}

/** A GET of a viewer path in-process, with the session `cookie` when given. */
export function viewerGet(
  server: RunningServer,
  path: string,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const url = path.startsWith('http') ? path : `${server.origin}${path}`;
  return Promise.resolve(
    server.app.request(url, { headers: { ...headers, ...(cookie === undefined ? {} : { cookie }) } }),
  );
}
