/**
 * 64-bit integers sent as JSON numbers, read exactly.
 *
 * OTLP JSON writes 64-bit integers (`intValue`, the `*UnixNano` times) as decimal strings, but
 * takes numbers too (the proto3 JSON mapping does, and OpenTelemetry's JavaScript serializer
 * writes `intValue` as a number). `JSON.parse` reads a number into a double, exact only up to
 * 2^53. The record decoders refuse an integer past that with `RoundedIntegerError`; the request is
 * then parsed again with {@link parseKeepingIntegers}, which reads those numbers from their
 * source text (`JSON.parse`'s reviver context, standard in Node 22 and 24), so that
 * 1152921504606846977 is stored as sent and a number outside int64 refuses its record. The second
 * parse only happens for requests that hold such a number.
 * @module
 */

/** Members whose values are 64-bit integers in OTLP JSON. */
const INTEGER_MEMBERS = new Set([
  'intValue',
  'timeUnixNano',
  'startTimeUnixNano',
  'endTimeUnixNano',
  'observedTimeUnixNano',
]);

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const NOT_ZERO = /[^0]/;

/**
 * The integer the JSON number `source` denotes, as decimal text (`"1.5e3"` is `"1500"`), or
 * `undefined` when it has a fraction. Its magnitude is bounded by the caller: a finite double.
 */
export function integerText(source: string): string | undefined {
  const match = NUMBER_TEXT.exec(source);
  if (match === null) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  let digits = whole! + fraction;
  if (shift < 0) {
    const cut = digits.length + shift;
    if (NOT_ZERO.test(digits.slice(Math.max(0, cut)))) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  } else {
    digits += '0'.repeat(shift);
  }
  return `${sign}${digits}`;
}

interface ReviverContext {
  source?: string;
}

/** Reviver of {@link parseKeepingIntegers}. */
function keepIntegerText(key: string, value: unknown, context?: ReviverContext): unknown {
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    !Number.isSafeInteger(value) &&
    INTEGER_MEMBERS.has(key) &&
    context?.source !== undefined
  ) {
    // The record decoders check the text: an int64 (a time: within 0 to 2^63 - 1), else refused.
    return integerText(context.source) ?? context.source;
  }
  return value;
}

/**
 * `JSON.parse(text)` with every integer-valued number past 2^53 of a 64-bit integer member turned
 * into the decimal string its text denotes. `undefined` when the text nests too deeply for the
 * reviver (V8 walks the parsed value recursively: several thousand levels on a decoder thread); the
 * first reading, whose records holding such numbers were refused, then stands.
 */
export function parseKeepingIntegers(text: string): unknown {
  try {
    return JSON.parse(text, keepIntegerText as (key: string, value: unknown) => unknown);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
