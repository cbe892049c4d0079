/**
 * A recorded source of messages: one convention's attributes for one direction, read into
 * messages. Sources are ranked (see `select-sources.ts`): a source in a message format
 * (`tier: 'messages'`) outranks one read as the value it is (`tier: 'value'`).
 * @module
 */

import type { NormalizedMessage } from '../message-types.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';

/** What a source read. */
export interface SourceRead {
  /** `messages` when the value is in a message format; `value` when read as it is. */
  tier: 'messages' | 'value';
  messages: NormalizedMessage[];
  /** The attributes read. */
  attributes: string[];
}

/** One convention's source of messages for one direction. */
export interface MessageSource {
  readonly direction: 'input' | 'output';
  /** What the record's attributes hold for this source, or `undefined` when it holds nothing. */
  read(record: RecordValues, reader: PartsReader): SourceRead | undefined;
}

/** `reads` as one read: their messages and attributes in order; `messages` tier when any is. */
export function combineReads(reads: readonly (SourceRead | undefined)[]): SourceRead | undefined {
  const present = reads.filter((read): read is SourceRead => read !== undefined);
  if (present.length === 0) return undefined;
  return {
    tier: present.some((read) => read.tier === 'messages') ? 'messages' : 'value',
    messages: present.flatMap((read) => read.messages),
    attributes: present.flatMap((read) => read.attributes),
  };
}
