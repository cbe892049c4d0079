/**
 * Reading one attribute's value as messages: parsed when it is JSON (under the spec's rules),
 * recognized by its message format, or else read as the value it is (text, or a JSON value with
 * the files it holds). Text that is the prefix of a value over 1 MiB the record uploaded (its
 * `svc.blobs` entry keyed `<attribute>#` is larger) says so.
 * @module
 */

import { digestFile } from '../files/message-file.js';
import { mediaTypeEssence } from '../media/media-type.js';
import { detectMessages } from '../message-readers/detect-messages.js';
import type { MessageOptions } from '../message-readers/read-message.js';
import type { MessagePart, NormalizedMessage } from '../message-types.js';
import { otherPart, textPart } from '../parts/make-part.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';
import { parseJsonText } from '../value/parse-json-text.js';
import { rootSite, type Site } from '../value/site.js';
import type { SourceRead } from './message-source.js';

/**
 * An attribute's value: parsed JSON, or text that is not JSON or is declared text (`plain`: never
 * read for files, spec "Automatic capture of files").
 */
export type ReadValue = { parsed: true; value: unknown } | { parsed: false; text: string; plain?: boolean };

/** The value of `name`: parsed unless `asText`; `undefined` when absent. */
export function readValue(record: RecordValues, name: string, asText = false): ReadValue | undefined {
  const value = record.value(name);
  if (value === undefined) return undefined;
  if (value.kind === 'json') return { parsed: true, value: value.value };
  if (asText) return { parsed: false, text: value.text, plain: true };
  const parsed = parseJsonText(value.text);
  return parsed.ok ? { parsed: true, value: parsed.value } : { parsed: false, text: value.text };
}

/** The parts of text standing for a whole attribute value (`plain`: one text part, never read for files). */
export function textValueParts(text: string, site: Site, reader: PartsReader, plain = false): MessagePart[] {
  const entry = reader.blobs.keyed(`${site.attribute}#`);
  const essence = mediaTypeEssence(entry?.contentType);
  if (
    entry !== undefined &&
    (essence === 'application/json' || essence === 'text/plain') &&
    entry.size > Buffer.byteLength(text, 'utf8')
  ) {
    return [textPart(text, site, digestFile(site, entry.sha256, entry.size, {}, reader.blobs))];
  }
  return plain ? [textPart(text, site)] : reader.text(text, site);
}

/** The parts of a value read as it is. */
export function valueParts(value: ReadValue, site: Site, reader: PartsReader): MessagePart[] {
  if (!value.parsed) return textValueParts(value.text, site, reader, value.plain);
  if (typeof value.value === 'string') return reader.text(value.value, site);
  if (value.value === null) return [];
  if (typeof value.value !== 'object') return [otherPart(value.value, site)];
  return [otherPart(value.value, site), ...reader.files(value.value, site)];
}

/** One message of role `options.direction` holding `value` as it is. */
export function valueMessage(
  name: string,
  value: ReadValue,
  reader: PartsReader,
  options: MessageOptions,
): NormalizedMessage {
  const site = rootSite(name);
  return {
    direction: options.direction,
    role: options.direction,
    parts: valueParts(value, site, reader),
    at: { attribute: name, pointer: '' },
    convention: options.convention,
  };
}

/**
 * Attribute `name` read as messages: in a message format (`tier: 'messages'`) or as its value
 * (`tier: 'value'`); `undefined` when absent. `asText`: the value is declared text.
 */
export function readAttributeMessages(
  record: RecordValues,
  reader: PartsReader,
  name: string,
  options: MessageOptions,
  asText = false,
): SourceRead | undefined {
  const value = readValue(record, name, asText);
  if (value === undefined) return undefined;
  if (value.parsed) {
    const messages = detectMessages(value.value, rootSite(name), reader, options);
    if (messages !== undefined) return { tier: 'messages', messages, attributes: [name] };
  }
  return { tier: 'value', messages: [valueMessage(name, value, reader, options)], attributes: [name] };
}
