/**
 * The files stored records list: entries of the `svc.blobs` attribute of spans and log records
 * (compact JSON strings: `key`, `sha256`, `size`, `content_type`, optional `name`), and `svc.file`
 * span events (`svc.file.sha256`, `.size`, `.media_type`, `.role`, optional `.name`). Up to 64
 * entries are read per record, one per key; an unparsable or invalid entry is ignored, and an
 * invalid name is left out.
 * @module
 */

import type { FileListing } from '../ingest/file-records.js';
import { MAX_BLOB_ENTRIES_READ } from '../limits.js';
import type { AnyValue, KeyValue } from '../otlp/model.js';
import { isSha256Hex } from './sha256-hex.js';

/** The role of a file recorded by a `svc.file` event. */
export type FileRole = 'input' | 'attachment' | 'output';

/** A file listed by a stored span or log record. */
export interface ListedFile {
  /** The `svc.blobs` key; `event:svc.file:<sha256>` for a `svc.file` event. */
  key: string;
  sha256: string;
  size: number;
  contentType: string;
  name: string | null;
  /** The role of a `svc.file` event; `null` for other entries. */
  role: FileRole | null;
  /** The span listing the file, or the span a listing log record is correlated with. */
  spanId: string;
  /** `log` when a correlated log record lists it. */
  record: 'span' | 'log';
  /** The listing log record's time (decimal nanoseconds), for `record: 'log'`. */
  logTimeUnixNano?: string;
  /** True when listed in `svc.blobs` (its bytes were sent for upload); false for a `svc.file` event alone. */
  listed: boolean;
}

const ROLES: readonly string[] = ['input', 'attachment', 'output'];
const MAX_NAME_LENGTH = 256;

/**
 * `name` when it is a valid file name: nonblank after trimming, at most 256 UTF-16 code units,
 * well-formed Unicode, without U+0000 to U+001F or U+007F; else `undefined`.
 */
export function validFileName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || name.trim() === '') return undefined;
  if (!name.isWellFormed()) return undefined;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return undefined;
  }
  return name;
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** One `svc.blobs` entry (a compact JSON string), or `undefined` when invalid. */
function readEntry(text: string): Omit<ListedFile, 'spanId' | 'record' | 'role' | 'listed'> | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { key, sha256, size, content_type: contentType, name } = entry as Record<string, unknown>;
  if (typeof key !== 'string' || key === '' || typeof sha256 !== 'string' || !isSha256Hex(sha256)) {
    return undefined;
  }
  if (!isSize(size) || typeof contentType !== 'string' || contentType === '') return undefined;
  return { key, sha256, size, contentType, name: validFileName(name) ?? null };
}

function attribute(attributes: readonly KeyValue[], key: string): AnyValue | undefined {
  return attributes.find((a) => a.key === key)?.value;
}

function stringOf(value: AnyValue | undefined): string | undefined {
  return value !== undefined && 'stringValue' in value ? value.stringValue : undefined;
}

function integerOf(value: AnyValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n =
    'intValue' in value ? Number(value.intValue) : 'doubleValue' in value ? Number(value.doubleValue) : NaN;
  return isSize(n) ? n : undefined;
}

/** The entries of a stored `svc.blobs` value (an `AnyValue` array of strings). */
function blobEntries(value: unknown) {
  const values = (value as { arrayValue?: { values?: unknown } } | null)?.arrayValue?.values;
  if (!Array.isArray(values)) return [];
  const entries = [];
  for (const item of values.slice(0, MAX_BLOB_ENTRIES_READ)) {
    const text = stringOf(item as AnyValue);
    const entry = text === undefined ? undefined : readEntry(text);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

/** The file a `svc.file` event records, or `undefined` when the event is invalid. */
function eventFile(attributes: readonly KeyValue[]) {
  const sha256 = stringOf(attribute(attributes, 'svc.file.sha256'));
  const size = integerOf(attribute(attributes, 'svc.file.size'));
  const contentType = stringOf(attribute(attributes, 'svc.file.media_type'));
  if (sha256 === undefined || !isSha256Hex(sha256) || size === undefined || !contentType) return undefined;
  const role = stringOf(attribute(attributes, 'svc.file.role'));
  return {
    key: `event:svc.file:${sha256}`,
    sha256,
    size,
    contentType,
    name: validFileName(stringOf(attribute(attributes, 'svc.file.name'))) ?? null,
    role: role !== undefined && ROLES.includes(role) ? (role as FileRole) : null,
  };
}

/**
 * The files of `listings` (as `FileRecords.listings` returns them), in order: per span, its
 * `svc.blobs` entries, then its `svc.file` events not listed there; then the log records' entries.
 * A `svc.file` event and the `svc.blobs` entry keyed `event:svc.file:<sha256>` are one file.
 */
export function listedFiles(listings: readonly FileListing[]): ListedFile[] {
  const files: ListedFile[] = [];
  // Files of the record being read, by key; listings of one span are adjacent.
  let current: { record: string; byKey: Map<string, ListedFile> } | undefined;
  listings.forEach((listing, index) => {
    const record = listing.record === 'span' ? `span:${listing.spanId}` : `log:${index}`;
    if (current?.record !== record) current = { record, byKey: new Map() };
    const { byKey } = current;
    const where =
      listing.record === 'span'
        ? { spanId: listing.spanId, record: 'span' as const }
        : { spanId: listing.spanId, record: 'log' as const, logTimeUnixNano: listing.logTimeUnixNano };
    if (listing.source === 'blobs') {
      for (const entry of blobEntries(listing.value)) {
        if (byKey.size >= MAX_BLOB_ENTRIES_READ || byKey.has(entry.key)) continue;
        const file: ListedFile = { ...entry, role: null, ...where, listed: true };
        byKey.set(entry.key, file);
        files.push(file);
      }
      return;
    }
    const event = eventFile(listing.attributes);
    if (event === undefined) return;
    const listed = byKey.get(event.key);
    if (listed !== undefined) {
      if (listed.role === null) {
        listed.role = event.role;
        listed.name ??= event.name;
      }
      return;
    }
    const file: ListedFile = { ...event, ...where, listed: false };
    byKey.set(event.key, file);
    files.push(file);
  });
  return files;
}
