import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The error codes every route may answer. Features add codes of their own (`EvalErrorCode`,
 * `MediaErrorCode`, in their folders); the whole list is composed at the top (`error-codes.ts`),
 * so this layer imports no feature, and a test holds every code the service throws to that list.
 */
export const COMMON_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'invalid_request',
  'unsupported_media_type',
  'payload_too_large',
  'rate_limited',
  'unavailable',
  'internal',
] as const;

/** A code of {@link COMMON_ERROR_CODES}. */
export type CommonErrorCode = (typeof COMMON_ERROR_CODES)[number];

/**
 * A machine-readable error code: a common one, or a feature's own (any string here; the list of
 * them all is `ApiErrorCode` in `error-codes.ts`).
 */
export type ErrorCode = CommonErrorCode | (string & {});

/** The JSON body of every error answer: `{ "error": { "code", "message" } }`. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string };
}

/**
 * An HTTP failure the service answers with a JSON error body. Messages are written by the
 * service itself: they never echo keys, request bodies or recorded content.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
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
