/**
 * `--set <slug>` or `--set <slug>@<version number>`: the eval set (a dataset, by slug) and which of
 * its versions to run.
 * @module
 */
import { InvalidArgumentError } from 'commander';

/** A parsed `--set`. */
export interface EvalSetReference {
  slug: string;
  /** The version number; absent: the latest frozen version. */
  version?: number;
  /** As given. */
  text: string;
}

const PATTERN = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:@([1-9]\d{0,8}))?$/;

/** Parses `--set`. */
export function parseEvalSetReference(value: string): EvalSetReference {
  const match = PATTERN.exec(value);
  if (match === null || match[1]!.length > 64) {
    throw new InvalidArgumentError(
      'Expected an eval set slug (lowercase letters, digits and single hyphens), optionally with @<version number>, such as support-docs or support-docs@3.',
    );
  }
  return { slug: match[1]!, ...(match[2] === undefined ? {} : { version: Number(match[2]) }), text: value };
}

/** Parses a scorer slug. */
export function parseSlug(value: string): string {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) || value.length > 64) {
    throw new InvalidArgumentError('Expected a slug: lowercase letters, digits and single hyphens.');
  }
  return value;
}
