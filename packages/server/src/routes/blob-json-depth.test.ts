import { describe, expect, it } from 'vitest';
import type { ApiErrorBody as ErrorBody } from '../http/api-error.js';
import { useServer } from '../test-support/server-fixture.js';

// Issue 13 item 3: the upload reservation and completion take JSON bodies too; they nest at most
// 64 levels of arrays and objects (the body's own object is the first), deeper is a 400 naming the
// path and the limit.
const fx = useServer();

function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

describe('JSON body nesting limit (upload reservation and completion)', () => {
  for (const path of ['/api/v1/otlp/blobs', '/api/v1/otlp/blobs/complete']) {
    it(`${path}: 3,500 levels → 400 naming the path and the limit`, async () => {
      const res = await fx.request(path, {
        method: 'POST',
        key: fx.server.keys.tracing,
        headers: { 'content-type': 'application/json' },
        body: `{"traceId":"${'a'.repeat(32)}","sha256":${nested(3_500)}}`,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toEqual({
        code: 'invalid_request',
        message: `sha256.${Array<string>(63).fill('0').join('.')}: nests deeper than 64 levels of arrays and objects, the limit of a JSON request body (the body itself is the first level).`,
      });
    });

    it(`${path}: malformed JSON is still the validator's 400`, async () => {
      const res = await fx.request(path, {
        method: 'POST',
        key: fx.server.keys.tracing,
        headers: { 'content-type': 'application/json' },
        body: '{"traceId":',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toContain('not valid JSON');
    });
  }
});
