import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { EvalErrorCode } from '../evals/core/eval-error-codes.js';
import type { MediaErrorCode } from '../media/media-error-codes.js';

/** Machine-readable error codes of the service's JSON error bodies. */
export type ApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_request'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal'
  | EvalErrorCode
  | MediaErrorCode;

/** The JSON body of every error answer: `{ "error": { "code", "message" } }`. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}

/**
 * An HTTP failure the service answers with a JSON error body. Messages are written by the
 * service itself: they never echo keys, request bodies or recorded content.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: ContentfulStatusCode;
  readonly code: ApiErrorCode;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: ApiErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  /** The JSON body for this error. */
  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/** Builds the JSON error `Response` for an {@link ApiError}. */
export function errorResponse(error: ApiError): Response {
  return new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: { 'content-type': 'application/json', ...error.headers },
  });
}
