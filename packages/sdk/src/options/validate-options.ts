/**
 * The one place client options are validated: the rules of the spec's "Client options" table.
 * @module
 */

import { describeKind, describeValue } from '../diagnostics/describe-value.js';
import { validateIntegerOption } from './integer-option.js';
import type { ExportIssue, Redactor, ResolvedSvcOptions } from './svc-options.js';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MILLIS } from './svc-options.js';

const MAX_SERVICE_NAME_CHARACTERS = 256;
const MIN_TIMEOUT_MILLIS = 100;
const MAX_TIMEOUT_MILLIS = 60_000;

/**
 * Checks `options` against the spec's rules and returns them with defaults applied and `baseUrl`
 * normalized to its origin (no trailing slash).
 *
 * Every invalid option throws a `TypeError` whose message names the option, the bad value and the
 * rule, e.g. `timeoutMillis must be an integer from 100 to 60000; got 50`. The value of `apiKey`
 * is never shown (only its type), and credentials in a `baseUrl` are masked. Options are checked in
 * the order of the spec's table and the first failure is thrown.
 *
 * Unknown keys are ignored, so options written for a later SDK version still work here. Nothing is
 * read from environment variables: the application reads them and passes the values.
 *
 * @param options - The options given to `createSvc`, `new SvcClient` or `createSvcTransport`.
 * @returns A new object; `options` is not modified.
 * @throws TypeError when `options` is not an object or one option breaks its rule.
 */
export function validateSvcOptions(options: unknown): ResolvedSvcOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(
      `options must be an object with apiKey, serviceName and captureContent; got ${describeValue(options)}`,
    );
  }
  const given = options as Record<string, unknown>;
  return {
    apiKey: validateApiKey(given.apiKey),
    serviceName: validateServiceName(given.serviceName),
    captureContent: validateCaptureContent(given.captureContent),
    baseUrl: validateBaseUrl(given.baseUrl),
    serviceVersion: validateServiceVersion(given.serviceVersion),
    timeoutMillis: validateTimeoutMillis(given.timeoutMillis),
    redact: validateFunction<Redactor>('redact', '(value, path) => string', given.redact),
    onExportIssue: validateFunction<(issue: ExportIssue) => void>(
      'onExportIssue',
      '(issue) => void',
      given.onExportIssue,
    ),
  };
}

/** The `apiKey` rule of the client options (also used by readers built from them). */
export function validateApiKey(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  // Only the type is shown: even a wrong value may be (part of) a secret.
  throw new TypeError(`apiKey must be a non-empty string; got ${describeKind(value)}`);
}

function validateServiceName(value: unknown): string {
  if (
    typeof value === 'string' &&
    /\S/u.test(value) &&
    // More than 2 × 256 code units is always more than 256 code points; skip counting then.
    value.length <= 2 * MAX_SERVICE_NAME_CHARACTERS &&
    countCodePoints(value) <= MAX_SERVICE_NAME_CHARACTERS
  ) {
    return value;
  }
  throw new TypeError(
    `serviceName must be a string of 1 to ${MAX_SERVICE_NAME_CHARACTERS} characters with non-whitespace content; got ${describeValue(value)}`,
  );
}

function validateCaptureContent(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new TypeError(`captureContent must be set explicitly to true or false; got ${describeValue(value)}`);
}

/** The `baseUrl` rule of the client options: returns the origin, or the default when unset. */
export function validateBaseUrl(value: unknown): string {
  if (value === undefined) return DEFAULT_BASE_URL;
  if (typeof value !== 'string') {
    throw new TypeError(
      `baseUrl must be a URL string (e.g. ${DEFAULT_BASE_URL}); got ${describeValue(value)}`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute URL (e.g. ${DEFAULT_BASE_URL}); got ${describeValue(value)}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    const masked = `${url.protocol}//***@${url.host}${url.pathname}${url.search}${url.hash}`;
    throw new TypeError(
      `baseUrl must not contain a username or password (pass the key as apiKey); got ${describeValue(masked)}`,
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new TypeError(
      `baseUrl must use https (http is allowed only for loopback hosts); got ${describeValue(value)}`,
    );
  }
  // The parser lowercases the host and drops default ports, so an origin alone serializes to
  // exactly `origin + '/'`; any path, query or fragment (even an empty `?` or `#`) differs.
  if (url.href !== `${url.origin}/`) {
    throw new TypeError(
      `baseUrl must be an origin without a path, query or fragment (e.g. ${DEFAULT_BASE_URL}); got ${describeValue(value)}`,
    );
  }
  return url.origin;
}

/** `localhost`, 127.0.0.0/8 or `[::1]`, as the URL parser normalizes them (e.g. `127.1` → `127.0.0.1`). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(hostname)
  );
}

function validateServiceVersion(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw new TypeError(`serviceVersion must be a string when set; got ${describeValue(value)}`);
}

/** The `timeoutMillis` rule of the client options: returns the default when unset. */
export function validateTimeoutMillis(value: unknown): number {
  return validateIntegerOption(
    'timeoutMillis',
    value,
    { min: MIN_TIMEOUT_MILLIS, max: MAX_TIMEOUT_MILLIS, fallback: DEFAULT_TIMEOUT_MILLIS },
    describeValue,
  );
}

function validateFunction<F>(name: string, shape: string, value: unknown): F | undefined {
  if (value === undefined || typeof value === 'function') return value as F | undefined;
  throw new TypeError(`${name} must be a function ${shape} when set; got ${describeValue(value)}`);
}

/** Unicode characters (code points), as the spec counts "characters" and Python's `len` does. */
function countCodePoints(value: string): number {
  let count = 0;
  for (const _character of value) count += 1;
  return count;
}
