/**
 * `@svc-run/sdk`: tracing, media and evaluation SDK for LLM applications.
 *
 * This release holds the error base every later part builds on; the tracing client arrives with
 * the tracing-SDK issue.
 * @module
 */
export { SvcError, type SvcErrorOptions } from './errors/svc-error.js';
