/**
 * Metadata values the SDK reads for files but that hold no messages: OpenInference `metadata`
 * (whole, or one `metadata.<key>` per attribute), the AI SDK's `ai.telemetry.metadata.<key>`,
 * Langfuse's observation and trace metadata (whole or per key). Their files are shown below the
 * messages; the attributes stay attributes.
 * @module
 */

import type { PlacedFile } from '../message-types.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';
import { rootSite } from '../value/site.js';
import { readValue } from './read-attribute.js';

const NAMES = new Set(['metadata', 'langfuse.observation.metadata', 'langfuse.trace.metadata']);
const PREFIXES = [
  'metadata.',
  'ai.telemetry.metadata.',
  'langfuse.observation.metadata.',
  'langfuse.trace.metadata.',
];

/** True when attribute `name` is a metadata value read for files. */
export function isMetadataAttribute(name: string): boolean {
  return NAMES.has(name) || PREFIXES.some((prefix) => name.length > prefix.length && name.startsWith(prefix));
}

/** The files and references in the record's metadata values, in attribute order. */
export function metadataFiles(record: RecordValues, reader: PartsReader): PlacedFile[] {
  const files: PlacedFile[] = [];
  for (const name of record.names) {
    if (!isMetadataAttribute(name)) continue;
    const value = readValue(record, name);
    if (value !== undefined)
      files.push(...reader.files(value.parsed ? value.value : value.text, rootSite(name)));
  }
  return files;
}
