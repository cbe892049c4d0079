/**
 * `/login` (the form and its POST), `/login/link` (one-time login links) and `/logout`.
 * POSTs are accepted from this origin only (Hono's CSRF check: `Origin` or `Sec-Fetch-Site`).
 * @module
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { LoginPage, MessagePage } from '../pages/login-page.js';
import { checkLoginKey } from '../session/login-key.js';
import { LOGIN_LINK_PATH } from '../session/login-link.js';
import { clearSessionCookie, isHttps, sessionIdOf, setSessionCookie } from '../session/session-cookie.js';
import { safeNext, sessionOf } from '../session/session-guard.js';
import type { ViewerAssets } from '../viewer-assets.js';
import { pageHeaders } from '../viewer-headers.js';
import type { ViewerOptions } from '../viewer-options.js';
import { frameOf, page } from './render-page.js';

/** Largest login form accepted (a key is 56 characters). */
const MAX_FORM_BYTES = 8 * 1024;

/** Registers the login and logout routes. */
export function registerLoginRoutes(app: Hono, options: ViewerOptions, assets: ViewerAssets): void {
  const now = options.now ?? Date.now;
  const allowedOrigin = (origin: string, c: { req: { url: string } }) =>
    origin === new URL(c.req.url).origin || origin === options.publicOrigin;
  const sameOrigin = csrf({ origin: allowedOrigin });
  const formLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) => c.text('The login form is too large.', 413),
  });

  app.get('/login', pageHeaders, (c) => {
    const next = safeNext(c.req.query('next'));
    if (sessionOf(c, options) !== undefined) return c.redirect(next, 303);
    return page(c, <LoginPage frame={frameOf(c, assets, false)} next={next} />);
  });

  app.post('/login', pageHeaders, sameOrigin, formLimit, async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
    const check = checkLoginKey(options.keyRing, typeof form.key === 'string' ? form.key : '');
    if (!check.ok) {
      return page(
        c,
        <LoginPage frame={frameOf(c, assets, false)} next={next} problem={check.message} />,
        check.status,
      );
    }
    const secure = isHttps(c, options.publicOrigin);
    options.sessions.end(sessionIdOf(c, secure));
    const { id, expiresAt } = options.sessions.open(check.session);
    setSessionCookie(c, secure, id, expiresAt, now());
    return c.redirect(next, 303);
  });

  app.get(LOGIN_LINK_PATH, pageHeaders, (c) => {
    const next = safeNext(c.req.query('next'));
    const redeemed = options.sessions.redeem(c.req.query('token') ?? '');
    if (redeemed !== 'valid') {
      return page(
        c,
        <LoginPage
          frame={frameOf(c, assets, false)}
          next={next}
          problem="This login link has expired or was used already (a link works once, within 15 minutes). Log in with a Read key, or ask for a new link (restart svc serve)."
        />,
        403,
      );
    }
    const secure = isHttps(c, options.publicOrigin);
    options.sessions.end(sessionIdOf(c, secure));
    const { id, expiresAt } = options.sessions.open({ preset: 'read', keyId: 'login-link' });
    setSessionCookie(c, secure, id, expiresAt, now());
    // A page that moves on from this origin (not a redirect): the SameSite=Strict cookie is then
    // sent even when the link was opened from another site, and the token leaves the address bar.
    return page(
      c,
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="referrer" content="no-referrer" />
          <meta http-equiv="refresh" content={`0; url=${next}`} />
          <title>Logged in · svc Traces</title>
        </head>
        <body>
          <p>
            Logged in. <a href={next}>Continue</a>
          </p>
        </body>
      </html>,
    );
  });

  const logout = (c: Context) => {
    const secure = isHttps(c, options.publicOrigin);
    options.sessions.end(sessionIdOf(c, secure));
    clearSessionCookie(c, secure);
    return page(
      c,
      <MessagePage
        frame={frameOf(c, assets, false)}
        title="Logged out"
        message="Your viewer session has ended in this browser."
        link={{ href: '/login', text: 'Log in again' }}
      />,
    );
  };
  app.get('/logout', pageHeaders, logout);
  app.post('/logout', pageHeaders, sameOrigin, logout);
}
