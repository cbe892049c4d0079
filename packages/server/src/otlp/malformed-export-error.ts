/**
 * The error of a request body that is not an OTLP export request at all.
 * @module
 */

/** Thrown when a request body is not an OTLP export request at all; answered 400, nothing stored. */
export class MalformedExportError extends Error {
  override readonly name = 'MalformedExportError';
}
