import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MILLIS } from './svc-options.js';
import { validateSvcOptions } from './validate-options.js';

const KEY = 'svc_test_0123456789abcdef';
const minimal = { apiKey: KEY, serviceName: 'checkout', captureContent: false };

/** Runs `validate` and returns the TypeError it throws. */
function thrown(options: unknown): TypeError {
  try {
    validateSvcOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  throw new Error(`validateSvcOptions accepted ${JSON.stringify(options)}`);
}

const long = 'a'.repeat(300);

const cases: Array<[string, unknown, string]> = [
  // options
  [
    'options undefined',
    undefined,
    'options must be an object with apiKey, serviceName and captureContent; got undefined',
  ],
  ['options null', null, 'options must be an object with apiKey, serviceName and captureContent; got null'],
  [
    'options a string',
    KEY,
    'options must be an object with apiKey, serviceName and captureContent; got "svc_test_0123456789abcdef"',
  ],
  [
    'options an array',
    [],
    'options must be an object with apiKey, serviceName and captureContent; got an array',
  ],
  // apiKey: the value is never shown
  ['apiKey missing', { ...minimal, apiKey: undefined }, 'apiKey must be a non-empty string; got undefined'],
  ['apiKey empty', { ...minimal, apiKey: '' }, 'apiKey must be a non-empty string; got an empty string'],
  ['apiKey a number', { ...minimal, apiKey: 12345 }, 'apiKey must be a non-empty string; got a number'],
  ['apiKey null', { ...minimal, apiKey: null }, 'apiKey must be a non-empty string; got null'],
  [
    'apiKey an object',
    { ...minimal, apiKey: { key: KEY } },
    'apiKey must be a non-empty string; got an object',
  ],
  ['apiKey an array', { ...minimal, apiKey: [KEY] }, 'apiKey must be a non-empty string; got an array'],
  // serviceName
  [
    'serviceName missing',
    { ...minimal, serviceName: undefined },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got undefined',
  ],
  [
    'serviceName empty',
    { ...minimal, serviceName: '' },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got an empty string',
  ],
  [
    'serviceName blank',
    { ...minimal, serviceName: ' \t\n' },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got " \\t\\n"',
  ],
  [
    'serviceName too long',
    { ...minimal, serviceName: 'a'.repeat(257) },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got a string of 257 characters',
  ],
  [
    'serviceName 257 emoji',
    { ...minimal, serviceName: '🚀'.repeat(257) },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got a string of 257 characters',
  ],
  [
    'serviceName of 257 characters, 513 UTF-16 code units',
    { ...minimal, serviceName: `x${'🚀'.repeat(256)}` },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got a string of 257 characters',
  ],
  [
    'serviceName a number',
    { ...minimal, serviceName: 42 },
    'serviceName must be a string of 1 to 256 characters with non-whitespace content; got 42',
  ],
  // captureContent
  [
    'captureContent missing',
    { ...minimal, captureContent: undefined },
    'captureContent must be set explicitly to true or false; got undefined',
  ],
  [
    'captureContent a string',
    { ...minimal, captureContent: 'true' },
    'captureContent must be set explicitly to true or false; got "true"',
  ],
  [
    'captureContent 1',
    { ...minimal, captureContent: 1 },
    'captureContent must be set explicitly to true or false; got 1',
  ],
  // baseUrl
  [
    'baseUrl a number',
    { ...minimal, baseUrl: 42 },
    'baseUrl must be a URL string (e.g. https://api.svc.run); got 42',
  ],
  [
    'baseUrl null',
    { ...minimal, baseUrl: null },
    'baseUrl must be a URL string (e.g. https://api.svc.run); got null',
  ],
  [
    'baseUrl empty',
    { ...minimal, baseUrl: '' },
    'baseUrl must be an absolute URL (e.g. https://api.svc.run); got an empty string',
  ],
  [
    'baseUrl without scheme',
    { ...minimal, baseUrl: 'api.svc.run' },
    'baseUrl must be an absolute URL (e.g. https://api.svc.run); got "api.svc.run"',
  ],
  [
    'baseUrl with a path',
    { ...minimal, baseUrl: 'https://x.test/api' },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got "https://x.test/api"',
  ],
  [
    'baseUrl with a query',
    { ...minimal, baseUrl: 'https://x.test/?region=eu' },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got "https://x.test/?region=eu"',
  ],
  [
    'baseUrl with an empty query',
    { ...minimal, baseUrl: 'https://x.test?' },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got "https://x.test?"',
  ],
  [
    'baseUrl with a fragment',
    { ...minimal, baseUrl: 'https://x.test#top' },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got "https://x.test#top"',
  ],
  [
    'baseUrl loopback with a path',
    { ...minimal, baseUrl: 'http://localhost:8080/v1/traces' },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got "http://localhost:8080/v1/traces"',
  ],
  [
    'baseUrl http on a public host',
    { ...minimal, baseUrl: 'http://example.com' },
    'baseUrl must use https (http is allowed only for loopback hosts); got "http://example.com"',
  ],
  [
    'baseUrl http on a private address',
    { ...minimal, baseUrl: 'http://10.0.0.1' },
    'baseUrl must use https (http is allowed only for loopback hosts); got "http://10.0.0.1"',
  ],
  [
    'baseUrl http on a localhost subdomain',
    { ...minimal, baseUrl: 'http://localhost.example.com' },
    'baseUrl must use https (http is allowed only for loopback hosts); got "http://localhost.example.com"',
  ],
  [
    'baseUrl another scheme',
    { ...minimal, baseUrl: 'ftp://api.svc.run' },
    'baseUrl must use https (http is allowed only for loopback hosts); got "ftp://api.svc.run"',
  ],
  [
    'baseUrl with credentials (masked)',
    { ...minimal, baseUrl: 'https://user:pw@host.test' },
    'baseUrl must not contain a username or password (pass the key as apiKey); got "https://***@host.test/"',
  ],
  [
    'baseUrl with a key as username (masked)',
    { ...minimal, baseUrl: `http://${KEY}@localhost:4318` },
    'baseUrl must not contain a username or password (pass the key as apiKey); got "http://***@localhost:4318/"',
  ],
  [
    'baseUrl long (its length only)',
    { ...minimal, baseUrl: `https://x.test/${long}` },
    'baseUrl must be an origin without a path, query or fragment (e.g. https://api.svc.run); got a string of 315 characters',
  ],
  // serviceVersion
  [
    'serviceVersion a number',
    { ...minimal, serviceVersion: 1 },
    'serviceVersion must be a string when set; got 1',
  ],
  [
    'serviceVersion null',
    { ...minimal, serviceVersion: null },
    'serviceVersion must be a string when set; got null',
  ],
  // timeoutMillis
  [
    'timeoutMillis too small',
    { ...minimal, timeoutMillis: 50 },
    'timeoutMillis must be an integer from 100 to 60000; got 50',
  ],
  [
    'timeoutMillis too large',
    { ...minimal, timeoutMillis: 60_001 },
    'timeoutMillis must be an integer from 100 to 60000; got 60001',
  ],
  [
    'timeoutMillis fractional',
    { ...minimal, timeoutMillis: 1000.5 },
    'timeoutMillis must be an integer from 100 to 60000; got 1000.5',
  ],
  [
    'timeoutMillis NaN',
    { ...minimal, timeoutMillis: Number.NaN },
    'timeoutMillis must be an integer from 100 to 60000; got NaN',
  ],
  [
    'timeoutMillis Infinity',
    { ...minimal, timeoutMillis: Number.POSITIVE_INFINITY },
    'timeoutMillis must be an integer from 100 to 60000; got Infinity',
  ],
  [
    'timeoutMillis a string',
    { ...minimal, timeoutMillis: '5000' },
    'timeoutMillis must be an integer from 100 to 60000; got "5000"',
  ],
  [
    'timeoutMillis a bigint',
    { ...minimal, timeoutMillis: 5000n },
    'timeoutMillis must be an integer from 100 to 60000; got 5000n',
  ],
  [
    'timeoutMillis null',
    { ...minimal, timeoutMillis: null },
    'timeoutMillis must be an integer from 100 to 60000; got null',
  ],
  // redact and onExportIssue
  [
    'redact a string',
    { ...minimal, redact: 'yes' },
    'redact must be a function (value, path) => string when set; got "yes"',
  ],
  [
    'redact an object',
    { ...minimal, redact: {} },
    'redact must be a function (value, path) => string when set; got an object',
  ],
  [
    'onExportIssue true',
    { ...minimal, onExportIssue: true },
    'onExportIssue must be a function (issue) => void when set; got true',
  ],
  [
    'onExportIssue an array',
    { ...minimal, onExportIssue: [] },
    'onExportIssue must be a function (issue) => void when set; got an array',
  ],
];

describe('validateSvcOptions: every rule', () => {
  it.each(cases)('%s', (_name, options, message) => {
    expect(thrown(options).message).toBe(message);
  });

  it('never shows the key in a message', () => {
    for (const [, options] of cases) {
      if (options === KEY) continue; // options itself a string: the caller passed the key as options
      expect(thrown(options).message).not.toContain(KEY);
    }
  });

  it('checks options in the order of the spec table and reports the first failure', () => {
    expect(thrown({ serviceName: '', timeoutMillis: 1 }).message).toBe(
      'apiKey must be a non-empty string; got undefined',
    );
  });
});

describe('validateSvcOptions: valid options', () => {
  it('applies defaults to minimal options', () => {
    expect(validateSvcOptions(minimal)).toEqual({
      apiKey: KEY,
      serviceName: 'checkout',
      captureContent: false,
      baseUrl: DEFAULT_BASE_URL,
      serviceVersion: undefined,
      timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
      redact: undefined,
      onExportIssue: undefined,
    });
    expect(DEFAULT_BASE_URL).toBe('https://api.svc.run');
    expect(DEFAULT_TIMEOUT_MILLIS).toBe(10_000);
  });

  it('keeps every option of a full set and ignores unknown keys', () => {
    const redact = (value: string) => value.replaceAll('secret', '***');
    const onExportIssue = () => {};
    const resolved = validateSvcOptions({
      apiKey: KEY,
      serviceName: 'checkout',
      captureContent: true,
      baseUrl: 'https://eu.svc.test:8443',
      serviceVersion: '1.4.2',
      timeoutMillis: 2500,
      redact,
      onExportIssue,
      optionOfALaterVersion: { anything: true },
    });
    expect(resolved).toEqual({
      apiKey: KEY,
      serviceName: 'checkout',
      captureContent: true,
      baseUrl: 'https://eu.svc.test:8443',
      serviceVersion: '1.4.2',
      timeoutMillis: 2500,
      redact,
      onExportIssue,
    });
    expect(resolved).not.toHaveProperty('optionOfALaterVersion');
  });

  it('accepts the bounds of timeoutMillis and serviceName', () => {
    expect(validateSvcOptions({ ...minimal, timeoutMillis: 100 }).timeoutMillis).toBe(100);
    expect(validateSvcOptions({ ...minimal, timeoutMillis: 60_000 }).timeoutMillis).toBe(60_000);
    expect(validateSvcOptions({ ...minimal, serviceName: 'a'.repeat(256) }).serviceName).toHaveLength(256);
    // Characters are code points: 256 emoji (512 UTF-16 code units) are 256 characters.
    expect(validateSvcOptions({ ...minimal, serviceName: '🚀'.repeat(256) }).serviceName).toHaveLength(512);
    expect(validateSvcOptions({ ...minimal, serviceName: ' x ' }).serviceName).toBe(' x ');
  });

  it.each([
    ['http://127.0.0.1:4318', 'http://127.0.0.1:4318'],
    ['http://127.45.6.7', 'http://127.45.6.7'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://LOCALHOST:8080', 'http://localhost:8080'],
    ['http://[::1]:9', 'http://[::1]:9'],
    ['https://api.svc.run/', 'https://api.svc.run'],
    ['https://API.svc.run:443', 'https://api.svc.run'],
    ['https://10.0.0.1', 'https://10.0.0.1'],
  ])('accepts baseUrl %s as %s', (baseUrl, origin) => {
    expect(validateSvcOptions({ ...minimal, baseUrl }).baseUrl).toBe(origin);
  });

  it('does not modify the given options', () => {
    const options = { ...minimal, baseUrl: 'https://api.svc.run/' };
    validateSvcOptions(options);
    expect(options).toEqual({ ...minimal, baseUrl: 'https://api.svc.run/' });
  });
});

describe('validateSvcOptions: environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('does not read environment variables', () => {
    vi.stubEnv('SVC_API_KEY', KEY);
    vi.stubEnv('SVC_BASE_URL', 'https://env.svc.test');
    const { apiKey: _omitted, ...withoutKey } = minimal;
    expect(thrown(withoutKey).message).toBe('apiKey must be a non-empty string; got undefined');
    expect(validateSvcOptions(minimal).baseUrl).toBe(DEFAULT_BASE_URL);

    const original = process.env;
    const reads: PropertyKey[] = [];
    process.env = new Proxy(original, {
      get(target, property) {
        reads.push(property);
        return Reflect.get(target, property);
      },
    });
    try {
      validateSvcOptions({ ...minimal, baseUrl: 'http://localhost:4318', timeoutMillis: 500 });
    } finally {
      process.env = original;
    }
    expect(reads).toEqual([]);
  });
});

describe('validateSvcOptions: properties', () => {
  it('refuses any integer timeoutMillis outside 100..60000, showing the value', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger().filter((n) => n < 100 || n > 60_000),
        (timeoutMillis) => {
          expect(thrown({ ...minimal, timeoutMillis }).message).toBe(
            `timeoutMillis must be an integer from 100 to 60000; got ${timeoutMillis}`,
          );
        },
      ),
    );
  });
});
