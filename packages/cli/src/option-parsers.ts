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
