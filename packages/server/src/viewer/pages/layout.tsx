/**
 * The frame of every viewer page: the head (the stylesheet, and the one script with the
 * response's CSP nonce) and the top bar (span name search, log out).
 * @module
 */
import type { Child } from 'hono/jsx';
import type { ViewerAssets } from '../viewer-assets.js';

/** What every page is rendered with. */
export interface PageFrame {
  assets: ViewerAssets;
  /** The CSP nonce of this response (the script tag carries it). */
  nonce: string;
  /** Whether a session is open (the bar then offers search and log out). */
  signedIn: boolean;
}

/** A whole page. `search`: the top bar's span name search (off where the page has its own). */
export function Layout(props: {
  frame: PageFrame;
  title: string;
  search?: boolean;
  wide?: boolean;
  children?: Child;
}) {
  const { frame } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${props.title} · svc Traces`}</title>
        <link rel="stylesheet" href={frame.assets.style.path} />
        <script src={frame.assets.script.path} nonce={frame.nonce} defer />
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/traces">
            svc · Traces
          </a>
          {frame.signedIn ? (
            <nav class="sections" aria-label="Sections">
              <a href="/traces">Traces</a>
              <a href="/experiments">Experiments</a>
              <a href="/scenarios">Scenarios</a>
            </nav>
          ) : null}
          {frame.signedIn && props.search !== false ? (
            <form class="find" method="get" action="/traces">
              <input
                id="q"
                name="spanName"
                type="search"
                placeholder="Find traces by span name (press /)"
                aria-label="Find traces by span name"
              />
            </form>
          ) : null}
          {frame.signedIn ? (
            <div class="end">
              <span class="keys">
                <kbd>j</kbd>/<kbd>k</kbd> span · <kbd>h</kbd>/<kbd>l</kbd> parent/child · <kbd>e</kbd> error ·{' '}
                <kbd>/</kbd> search
              </span>
              <form method="post" action="/logout">
                <button type="submit">Log out</button>
              </form>
            </div>
          ) : null}
        </header>
        <main class={props.wide ? 'wide' : 'page'}>{props.children}</main>
      </body>
    </html>
  );
}
