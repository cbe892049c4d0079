/**
 * Options of `createEvaluationClient`, and their validation.
 * @module
 */
import { validateSvcOptions } from '../../options/validate-options.js';

/** Options of `createEvaluationClient`. */
export interface EvaluationClientOptions {
  /** Required. A project key; registry writes need a Read-and-write key (`project_write`). */
  apiKey: string;
  /** The service origin (no path, query, fragment or credentials); HTTPS except loopback HTTP. */
  baseUrl?: string;
  /** Integer 100 to 60000; default 10000. The deadline of each request (headers and body). */
  timeoutMillis?: number;
}

/** Options after validation. */
export interface ResolvedEvaluationClientOptions {
  apiKey: string;
  /** The origin, without a trailing slash. */
  baseUrl: string;
  timeoutMillis: number;
}

/**
 * Validates the options once. The rules of `apiKey`, `baseUrl` and `timeoutMillis` are those of
 * the tracing client's options (same checks, same messages).
 *
 * @throws TypeError naming the option, the bad value (never the key's) and the rule.
 */
export function validateEvaluationClientOptions(options: unknown): ResolvedEvaluationClientOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(
      `options must be an object { apiKey, baseUrl?, timeoutMillis? }; got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  }
  const given = options as Record<string, unknown>;
  // The tracing client's checks of these three options; the other two fields only satisfy its shape.
  const resolved = validateSvcOptions({
    apiKey: given.apiKey,
    serviceName: 'evaluation-client',
    captureContent: false,
    baseUrl: given.baseUrl,
    timeoutMillis: given.timeoutMillis,
  });
  return { apiKey: resolved.apiKey, baseUrl: resolved.baseUrl, timeoutMillis: resolved.timeoutMillis };
}
