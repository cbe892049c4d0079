/**
 * How an unhandled error (a defect: an exception no route turned into an answer) is written to
 * the server's log: its type, its message and its stack, and those of its causes, so that the
 * defect can be found; never a key, a query value or recorded content. Messages of the platform's
 * errors can quote what they choke on (`JSON.parse` quotes the text it read), so every quoted
 * passage of a message is left out, except a short identifier in single quotes (the property in
 * `Cannot read properties of undefined (reading 'bind')`), and so is every key-shaped or
 * token-shaped word. Stacks are code locations only.
 * @module
 */

/** Causes followed at most. */
const MAX_CAUSES = 3;

/** Characters of a message kept at most. */
const MAX_MESSAGE = 500;

/** A key (`svc_tracing_…`), or a long run of token characters (signatures, secrets, digests). */
const TOKEN = /\bsvc_[a-z]+_[\w-]+|[\w+=-]{32,}/g;

/** A quoted passage: "…", `…` or '…'. */
const QUOTED = /"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|'(?:[^'\\]|\\.)*'/g;

/** A quoted passage that is kept: a short identifier in single quotes. */
const IDENTIFIER = /^'[A-Za-z_$][\w$]{0,39}'$/;

/** `message` without quoted passages or tokens, cut to {@link MAX_MESSAGE} characters. */
export function sanitizeErrorMessage(message: string): string {
  const kept = message
    .replace(QUOTED, (quoted) => (IDENTIFIER.test(quoted) ? quoted : `${quoted[0]}…${quoted[0]}`))
    .replace(TOKEN, '[redacted]');
  return kept.length > MAX_MESSAGE ? `${kept.slice(0, MAX_MESSAGE)}…` : kept;
}

/** The `at …` lines of a stack: code locations (the first lines repeat the message, sanitized apart). */
function frames(stack: string | undefined): string[] {
  if (stack === undefined) return [];
  return stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => `    ${line.trim()}`);
}

function typeOf(error: Error): string {
  const name = error.constructor?.name;
  return name && name !== error.name && name !== 'Error' ? `${error.name} (${name})` : error.name;
}

/** One error: `Type: message` and its stack frames. */
function describeOne(error: unknown): string[] {
  if (!(error instanceof Error)) return [`a thrown ${error === null ? 'null' : typeof error} (not an Error)`];
  return [`${typeOf(error)}: ${sanitizeErrorMessage(error.message)}`, ...frames(error.stack)];
}

/**
 * The log text of an unhandled error raised while answering `method route` (a route pattern,
 * never the request's path): `svc server: unhandled error in POST /x: TypeError: …`, the stack's
 * frames, then each cause (`caused by: …`).
 */
export function describeUnhandledError(error: unknown, method: string, route: string): string {
  const lines = [`svc server: unhandled error in ${method} ${route}: ${describeOne(error).join('\n')}`];
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    lines.push(`  caused by: ${describeOne(cause).join('\n')}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}
