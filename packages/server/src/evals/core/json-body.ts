/**
 * Reads the JSON body of an evaluation request within the 1 MiB limit and the nesting limit of
 * JSON bodies.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../http/api-error.js';
import { assertJsonBodyDepth } from '../../http/json-depth.js';
import { BodyTooLargeError, readRequestBody } from '../../http/read-request-body.js';
import { MAX_EVAL_BODY_BYTES } from './eval-limits.js';

/**
 * The parsed JSON body of `request`. An empty body reads as `{}`.
 *
 * @throws ApiError 413 `payload_too_large` past 1 MiB, 415 for a content type other than JSON, 400
 *   for text that is not JSON or nests deeper than `MAX_JSON_BODY_DEPTH` (checked here, before the
 *   body is validated or any record looked up).
 */
export async function readJsonBody(
  request: Request,
  incoming: IncomingMessage | undefined,
): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type !== null && !/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Evaluation requests take a JSON body: send Content-Type: application/json.',
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readRequestBody(request, incoming, MAX_EVAL_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new ApiError(
        413,
        'payload_too_large',
        `Evaluation request bodies are limited to 1 MiB (${MAX_EVAL_BODY_BYTES} bytes); send fewer items per request or upload large files separately.`,
      );
    }
    throw error;
  }
  if (bytes.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_request', 'The request body is not valid JSON.');
  }
  assertJsonBodyDepth(body);
  return body;
}
