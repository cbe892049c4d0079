/**
 * Answering with a viewer page: the page's frame (assets, this response's CSP nonce, whether a
 * session is open), `text/html`, never cached.
 * @module
 */
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { StatusCode } from 'hono/utils/http-status';
import type { PageFrame } from '../pages/layout.js';
import type { ViewerAssets } from '../viewer-assets.js';

/** The frame of a page answering `c`. */
export function frameOf(c: Context, assets: ViewerAssets, signedIn: boolean): PageFrame {
  const nonce = (c.get('secureHeadersNonce' as never) as string | undefined) ?? '';
  return { assets, nonce, signedIn };
}

/** A page answer. */
export function page(c: Context, element: JSX.Element, status: StatusCode = 200): Response {
  c.header('cache-control', 'no-store');
  return c.html(`<!doctype html>${element.toString()}`, status as 200);
}
