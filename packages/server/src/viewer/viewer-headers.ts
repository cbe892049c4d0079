/**
 * The security headers of the viewer's answers. Pages: a strict Content-Security-Policy (the one
 * script by nonce, styles and media from this origin only, no plugins, no framing, forms to this
 * origin only), no referrer, no caching. File bytes: `nosniff` and a sandbox CSP, so a file opened
 * as a document runs nothing, and `Cross-Origin-Resource-Policy: same-origin`.
 * @module
 */
import { NONCE, secureHeaders } from 'hono/secure-headers';

/** The CSP of the viewer's pages (the nonce is the response's own). */
export const PAGE_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: [NONCE],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  mediaSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
};

/** Middleware setting the page headers; the nonce is `c.get('secureHeadersNonce')`. */
export const pageHeaders = secureHeaders({
  contentSecurityPolicy: PAGE_CSP,
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  // HSTS belongs to whoever terminates TLS in front of the reference server, not to its pages.
  strictTransportSecurity: false,
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
});

/** The CSP of served file bytes: nothing runs, nothing loads, even when opened as a document. */
export const FILE_CSP = "default-src 'none'; sandbox";

/** Headers every answer carrying recorded bytes or text has. */
export const BYTES_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': FILE_CSP,
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'private, no-store',
};
