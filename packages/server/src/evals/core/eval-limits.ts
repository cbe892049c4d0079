/**
 * Limits of the evaluation registry, in one place (the spec's "Limits" table, evaluation row, and
 * the case-file bounds). Each is documented in the package README.
 * @module
 */

/** Largest request body of an evaluation route (1 MiB); a larger one is answered 413. */
export const MAX_EVAL_BODY_BYTES = 1024 * 1024;

/** No evaluation response body is larger than this (4 MiB); a page that would be is refused. */
export const MAX_EVAL_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Smallest and largest `limit` of a page request. */
export const MIN_PAGE_LIMIT = 1;
export const MAX_PAGE_LIMIT = 100;

/** `limit` when a page request gives none. */
export const DEFAULT_PAGE_LIMIT = 50;

/** Most files pinned to one case. */
export const MAX_CASE_FILES = 32;

/** Largest case file (25 MiB); copying a file from a trace uses the same bound. */
export const MAX_CASE_FILE_BYTES = 25 * 1024 * 1024;

/** Longest case file name, in UTF-16 code units. */
export const MAX_CASE_FILE_NAME = 255;

/** Most results in one submission, and most judge jobs in one request. */
export const MAX_RESULTS_PER_SUBMISSION = 1000;
export const MAX_JUDGE_JOBS_PER_REQUEST = 100;

/** Most subjects of one evaluation run created at once, and most scorer versions pinned. */
export const MAX_RUN_SUBJECTS = 10_000;
export const MAX_PINNED_SCORER_VERSIONS = 32;

/** Most metric definitions of one scorer version. */
export const MAX_METRICS = 32;
