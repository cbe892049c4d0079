/**
 * What every page route of the viewer shares: the session guard (a page needs a live session),
 * the same-origin reload of a navigation from another site, and the "not found" page.
 * @module
 */
import type { Context } from 'hono';
import { MessagePage } from '../pages/login-page.js';
import { crossSiteNavigation, hereOf, sessionOf } from '../session/session-guard.js';
import type { ViewerAssets } from '../viewer-assets.js';
import type { ViewerOptions } from '../viewer-options.js';
import { frameOf, page } from './render-page.js';

/** A same-origin reload of this URL (see `session-guard.ts`: the Strict cookie comes along). */
function reloadHere(c: Context, assets: ViewerAssets): Response {
  return page(
    c,
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="referrer" content="no-referrer" />
        <meta http-equiv="refresh" content={`0; url=${hereOf(c)}`} />
        <title>svc Traces</title>
        <link rel="stylesheet" href={assets.style.path} />
      </head>
      <body>
        <p>
          <a href={hereOf(c)}>Continue to the viewer</a>
        </p>
      </body>
    </html>,
  );
}

/**
 * Guards a page: the handler runs with a live session; without one, a navigation from another
 * site reloads from this origin, anything else goes to the login page and back.
 */
export function withSession(
  options: ViewerOptions,
  assets: ViewerAssets,
  handler: (c: Context) => Promise<Response>,
) {
  return async (c: Context) => {
    if (sessionOf(c, options) !== undefined) return handler(c);
    if (crossSiteNavigation(c)) return reloadHere(c, assets);
    return c.redirect(`/login?${new URLSearchParams({ next: hereOf(c) })}`, 303);
  };
}

/** The "not found" page (404), with a link back to a list. */
export function notFoundPage(
  c: Context,
  assets: ViewerAssets,
  message: string,
  link: { href: string; text: string } = { href: '/traces', text: 'All traces' },
): Response {
  return page(
    c,
    <MessagePage frame={frameOf(c, assets, true)} title="Not found" message={message} link={link} />,
    404,
  );
}
