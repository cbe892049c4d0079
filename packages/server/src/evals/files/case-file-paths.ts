/**
 * Paths of the signed case-file routes (their links need no key).
 * @module
 */

/** The path of an artifact's upload (PUT) route; `{artifactId}` names it. */
export const ARTIFACT_UPLOAD_PATH = '/api/v1/evals/artifacts/{artifactId}/content';

/** The path of a case file's download route. */
export const CASE_FILE_DOWNLOAD_PATH = '/api/v1/evals/case-files/{caseId}/{sha256}';
