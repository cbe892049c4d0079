/**
 * The first check of an evaluation options object: a plain object, else a `TypeError` listing the
 * options it takes.
 * @module
 */
import { describeValue } from '../../diagnostics/describe-value.js';

/**
 * `options` as a record of its keys.
 *
 * @param shape - The options the message lists, for example `{ scorers?, schemaTimeoutMillis? }`.
 * @throws TypeError `options must be an object <shape>; got <value>` unless a plain object.
 */
export function requireOptionsObject(options: unknown, shape: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`options must be an object ${shape}; got ${describeValue(options)}`);
  }
  return options as Record<string, unknown>;
}
