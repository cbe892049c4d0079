/**
 * The options of `media.resolve`, its result, and their one validation.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import type { MediaFetchErrorReason } from '../../errors/media-fetch-error.js';
import type { BlobEntry } from '../media-types.js';
import { type BlobEntryInput, blobEntriesBySha256 } from './blob-entries.js';
import {
  type MediaFileSource,
  type MediaReadLimits,
  optionsRecord,
  type ResolvedReadTarget,
  resolveReadTarget,
} from './fetch-options.js';

/** Options of `media.resolve`: where the files are (a trace or a trace snapshot), limits, and these. */
export type MediaResolveOptions = MediaFileSource & MediaReadLimits & MediaResolveSettings;

/** What `media.resolve` restores, and how. */
export interface MediaResolveSettings {
  /**
   * The record's `svc.blobs` entries: the attribute's strings as stored, or parsed entries (`[]`
   * when it lists none). Only files listed here are requested; at most 64 entries are read and
   * unparsable ones are ignored, as the service does.
   */
  blobs: readonly BlobEntryInput[];
  /**
   * `inline` (default): each file is written back in its convention's form (a data: URL, or bare
   * base64 where the convention holds that). `bytes`: each part in digest form is replaced by a
   * `Uint8Array` of the file (parts inside JSON-encoded strings are still written inline, and a
   * value given as JSON text comes back parsed: JSON text cannot hold bytes).
   */
  as?: 'inline' | 'bytes';
  /**
   * Where the value was read from: the attribute's name (`gen_ai.input.messages`), or `body` for a
   * log record's body. A value over 1 MiB is uploaded whole and only its 16 KiB prefix is kept in
   * the record; when `blobs` lists that upload (key `<attribute>#`), the whole value is read back
   * in place of the prefix (as text, then its files are restored), or, when it cannot be, the
   * prefix stays and `failures` says why (`prefix_only` when its bytes were never stored). Without
   * this option, a kept prefix is returned as it is.
   */
  attribute?: string;
}

/**
 * Why a file of `media.resolve` was left in digest form: a {@link MediaFetchErrorReason}, or
 * - `not_listed`: the record's `svc.blobs` does not list the digest (the file was refused at
 *   export, so its bytes were never uploaded); it is not requested;
 * - `prefix_only`: a text file, or a value uploaded whole (see `attribute`), of which only the
 *   inline prefix kept in the record is available (its bytes are not listed, not found or
 *   missing); the part, or the value, keeps that prefix.
 */
export type MediaResolveFailureReason = MediaFetchErrorReason | 'not_listed' | 'prefix_only';

/** A file `media.resolve` left as recorded. */
export interface MediaResolveFailure {
  /**
   * JSON pointer of the part in the value (in the parsed value when the value is JSON text); for a
   * part inside a JSON-encoded string, the pointer of that string.
   */
  pointer: string;
  /** For a part inside a JSON-encoded string: its JSON pointer inside the parsed string. */
  innerPointer?: string;
  /** The file's SHA-256. */
  sha256: string;
  reason: MediaResolveFailureReason;
}

/** What `media.resolve` returns. */
export interface MediaResolveResult {
  /**
   * A new value (the given one is not modified); JSON text when the value given was JSON text,
   * except with `as: 'bytes'`, which returns the parsed value.
   */
  value: unknown;
  /** The files left in digest form, in the order they were found. */
  failures: MediaResolveFailure[];
}

/** Validated options of `media.resolve`. */
export interface ResolvedResolveOptions extends ResolvedReadTarget {
  blobs: Map<string, BlobEntry>;
  as: 'inline' | 'bytes';
  /** The entry of the value uploaded whole (key `<attribute>#`), when `attribute` names one. */
  wholeValue: BlobEntry | undefined;
}

/**
 * Validates the options of `media.resolve`.
 *
 * @throws TypeError naming the option, the value and the rule it breaks.
 */
export function resolveResolveOptions(options: unknown): ResolvedResolveOptions {
  const given = optionsRecord(options, 'media.resolve options');
  const target = resolveReadTarget(given);
  const blobs = blobEntriesBySha256(given.blobs);
  const as = given.as ?? 'inline';
  if (as !== 'inline' && as !== 'bytes') {
    throw new TypeError(`as must be 'inline' or 'bytes'; got ${describeValue(as)}`);
  }
  const { attribute } = given;
  if (
    attribute !== undefined &&
    (typeof attribute !== 'string' || attribute === '' || attribute.includes('#'))
  ) {
    throw new TypeError(
      `attribute must be the name of the attribute the value was read from (or 'body'), without '#'; got ${describeValue(attribute)}`,
    );
  }
  const wholeKey = attribute === undefined ? undefined : `${attribute}#`;
  const wholeValue = [...blobs.values()].find((entry) => entry.key === wholeKey);
  return { ...target, blobs, as, wholeValue };
}
