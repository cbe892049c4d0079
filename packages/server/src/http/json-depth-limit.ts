/**
 * The nesting limit of JSON request bodies as a Hono middleware, for routes whose body Hono's
 * validator parses (the upload reservation and completion).
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { assertJsonBodyDepth } from './json-depth.js';

/** The media types Hono's JSON validator parses (`application/json`, `application/…+json`). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Refuses (400, naming the path and the limit) a JSON body nesting deeper than
 * `MAX_JSON_BODY_DEPTH`, before the route validates it. The parsed body is cached by the request,
 * so the validator does not parse it again; a body that is not JSON is left to the validator.
 */
export function jsonDepthLimit(): MiddlewareHandler {
  return async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (JSON_MEDIA_TYPE.test(mediaType)) {
      let body: unknown;
      let parsed = true;
      try {
        body = await c.req.json();
      } catch {
        parsed = false; // the validator answers malformed JSON
      }
      if (parsed) assertJsonBodyDepth(body);
    }
    await next();
  };
}
