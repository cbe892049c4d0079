/**
 * Parsers of option values. Each throws commander's `InvalidArgumentError`, which commander
 * reports as a usage error.
 * @module
 */
import { InvalidArgumentError } from 'commander';

/** Parses a TCP port: a decimal integer from 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new InvalidArgumentError('Expected an integer from 0 to 65535.');
  }
  return port;
}

/** Accepts any value that is not empty or only whitespace. */
export function parseNonBlank(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('Expected a nonblank value.');
  return value;
}

/** Returns a parser of whole numbers of seconds from `min` to `max`. */
export function secondsParser(min: number, max: number): (value: string) => number {
  return (value) => {
    const seconds = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
      throw new InvalidArgumentError(`Expected a whole number of seconds from ${min} to ${max}.`);
    }
    return seconds;
  };
}

/** Returns a parser of integers from `min` to `max`. */
export function integerParser(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`Expected an integer from ${min} to ${max}.`);
    }
    return number;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Accepts an ID of the service: a lowercase UUID. */
export function parseId(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError('Expected an ID (a lowercase UUID).');
  return value;
}

/** Collects the values of a repeatable option (commander's `argParser` with a previous value). */
export function collect<T>(parse: (value: string) => T): (value: string, previous: T[] | undefined) => T[] {
  return (value, previous) => [...(previous ?? []), parse(value)];
}
