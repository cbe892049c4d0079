/**
 * The rule every integer option of the SDK shares: unset takes the default, else an integer
 * within a range.
 * @module
 */

/** The range and default of an integer option. */
export interface IntegerRange {
  min: number;
  max: number;
  /** The value when the option is unset. */
  fallback: number;
}

/**
 * `value` when it is an integer from `range.min` to `range.max`, `range.fallback` when it is
 * `undefined`.
 *
 * @param name - The option, as the message names it (for example `timeoutMillis`).
 * @param show - How the bad value is shown in the message (the caller's describer).
 * @throws TypeError `<name> must be an integer from <min> to <max>; got <value>`.
 */
export function validateIntegerOption(
  name: string,
  value: unknown,
  range: IntegerRange,
  show: (value: unknown) => string,
): number {
  if (value === undefined) return range.fallback;
  if (Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max) {
    return value as number;
  }
  throw new TypeError(`${name} must be an integer from ${range.min} to ${range.max}; got ${show(value)}`);
}
