/**
 * What the SDK says of a failure it does not let reach the application (the never-throw policy of
 * telemetry): in an export issue's message and on OpenTelemetry's `diag`. Sanitized — export
 * issues reach `onExportIssue` and logs, and must hold no key, no recorded content and no server
 * body: the type of what was thrown, and, unless the failure may quote content, the first line of
 * its message up to its first quoted part (V8 quotes the text it could not parse and the property
 * names it could not read), anything shaped like a key or a long token masked, at most 160
 * characters.
 * @module
 */

/** A type name worth showing: an identifier, not text the thrower chose freely. */
const TYPE_NAME = /^[A-Za-z_$][\w$]{0,63}$/;
/**
 * The first quote that opens a quoted part: V8 quotes the text it could not parse (which may itself
 * hold quotes) and the property it could not read, so everything from there on is left out. A
 * quote after a letter or digit opens nothing (`the service's answer`).
 */
const OPENING_QUOTE = /(?<![\p{L}\p{N}])["'`]/u;
/** Service keys, bearer credentials, and long unbroken tokens (base64, hex, IDs). */
const SECRETS = /\bsvc_[A-Za-z0-9_-]*|\bBearer\s+\S+|[A-Za-z0-9+/=_-]{32,}/g;
const MAX_MESSAGE = 160;

/** Reads `key` of `value`; a getter or proxy that throws gives `undefined`. */
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined; // a hostile value: described by its type alone
  }
}

/** The type of what was thrown: `TypeError`, `SvcExportError`…, or `a thrown string` for a non-object. */
export function failureType(thrown: unknown): string {
  if (typeof thrown !== 'object' || thrown === null)
    return `a thrown ${thrown === null ? 'null' : typeof thrown}`;
  const name = read(thrown, 'name');
  if (typeof name === 'string' && TYPE_NAME.test(name)) return name;
  const constructorName = (read(thrown, 'constructor') as { name?: unknown } | undefined)?.name;
  return typeof constructorName === 'string' && TYPE_NAME.test(constructorName) ? constructorName : 'Error';
}

/** The sanitized first line of a thrown error's message, or `undefined` when there is none. */
export function failureMessage(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const message = read(thrown, 'message');
  if (typeof message !== 'string') return undefined;
  let line = message.split('\n', 1)[0] ?? '';
  const quote = line.search(OPENING_QUOTE);
  if (quote >= 0) line = `${line.slice(0, quote)}…`;
  line = line.replace(SECRETS, '…').trim();
  if (line === '') return undefined;
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

/** Options of {@link describeFailure}. */
export interface DescribeOptions {
  /**
   * False for a failure of code that handles recorded content (a redactor, an application's
   * getter), whose message may quote it: only its type is shown. Default true.
   */
  message?: boolean;
}

/** `TypeError: Cannot read properties of undefined (reading …`, sanitized (see the module). */
export function describeFailure(thrown: unknown, options: DescribeOptions = {}): string {
  const type = failureType(thrown);
  const message = options.message === false ? undefined : failureMessage(thrown);
  return message === undefined ? type : `${type}: ${message}`;
}

/** The stack frames of a thrown error (`at …` lines, at most 10): code locations, no message. */
export function stackFrames(thrown: unknown): string[] {
  if (typeof thrown !== 'object' || thrown === null) return [];
  const stack = read(thrown, 'stack');
  if (typeof stack !== 'string') return [];
  return stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, 10);
}
