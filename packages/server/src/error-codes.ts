/**
 * Every machine-readable error code the service answers, composed at the top from the common
 * codes (`http`) and each feature's own: the `error.code` of a JSON error body is one of these.
 * @module
 */
import { EVAL_ERROR_CODES } from './evals/core/eval-error-codes.js';
import { COMMON_ERROR_CODES } from './http/api-error.js';
import { MEDIA_ERROR_CODES } from './media/media-error-codes.js';
import { SCENARIO_ERROR_CODES } from './scenarios/scenario-error-codes.js';

/** Every error code, common ones first. */
export const API_ERROR_CODES = [
  ...COMMON_ERROR_CODES,
  ...EVAL_ERROR_CODES,
  ...MEDIA_ERROR_CODES,
  ...SCENARIO_ERROR_CODES,
] as const;

/** An error code of the service (`{ "error": { "code" } }`). */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
