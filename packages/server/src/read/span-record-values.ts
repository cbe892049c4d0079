/**
 * What the viewer serves of a span's record itself: the bytes of a file the span (or a log record
 * correlated with it) still holds inline. (The whole text of a value the span detail shows only the
 * start of is `recordedValue`'s.)
 * @module
 */
import type { ListedFile } from '../media/listed-files.js';
import type { LogRecordRecord } from '../otlp/model.js';
import {
  inlineFileBytes,
  type MessageFile,
  type MessagePart,
  type NormalizedMessages,
  normalizeLogMessages,
  normalizeSpanMessages,
} from './messages/index.js';
import type { StoredSpan } from './span-rows.js';

/** An inline file's bytes and what its record says of it. */
export interface InlineFile {
  bytes: Uint8Array;
  contentType: string;
  name?: string;
}

function* filesOf(parts: readonly MessagePart[]): Generator<MessageFile> {
  for (const part of parts) {
    if (part.type === 'file') yield part.file;
    else if (part.type === 'tool_result') yield* filesOf(part.parts);
  }
}

function* inlineFiles(normalized: NormalizedMessages, sha256: string): Generator<MessageFile> {
  const all = [
    ...normalized.messages.flatMap((message) => [...filesOf(message.parts)]),
    ...normalized.belowMessages.flatMap((placed) => (placed.type === 'file' ? [placed.file] : [])),
  ];
  for (const file of all) if (file.form === 'inline' && file.sha256 === sha256) yield file;
}

function found(file: MessageFile, bytes: Uint8Array): InlineFile {
  return { bytes, contentType: file.contentType, ...(file.name === undefined ? {} : { name: file.name }) };
}

/** The bytes of the inline file `sha256` of `span` or its correlated `logs`, checked against the digest. */
export function inlineFileOf(
  span: StoredSpan,
  logs: readonly LogRecordRecord[],
  listed: readonly ListedFile[],
  sha256: string,
): InlineFile | undefined {
  const spanListed = listed.filter((file) => file.record === 'span');
  for (const file of inlineFiles(normalizeSpanMessages(span.attributes, spanListed), sha256)) {
    const bytes = inlineFileBytes(span.attributes, undefined, file);
    if (bytes !== undefined) return found(file, bytes);
  }
  for (const log of logs) {
    const logListed = listed.filter((f) => f.record === 'log' && f.logTimeUnixNano === log.timeUnixNano);
    const body = log.body ?? undefined;
    const normalized = normalizeLogMessages(log.eventName, body, log.attributes, logListed);
    for (const file of inlineFiles(normalized, sha256)) {
      const bytes = inlineFileBytes(log.attributes, body, file);
      if (bytes !== undefined) return found(file, bytes);
    }
  }
  return undefined;
}

/** A value's whole text: a string as it is, anything else as JSON. */
