/**
 * Test support: span attributes and listed files written compactly.
 * @module
 */

import type { ListedFile } from '../../../media/listed-files.js';
import type { KeyValue } from '../../../otlp/model.js';
import type { MessageFile, MessagePart, NormalizedMessages } from '../message-types.js';
import { placedFiles } from '../parts/parts-reader.js';

/** String attributes; non-string values are written as their JSON text. */
export function attrs(values: Record<string, unknown>): KeyValue[] {
  return Object.entries(values).map(([key, value]) => ({
    key,
    value: { stringValue: typeof value === 'string' ? value : JSON.stringify(value) },
  }));
}

/** A `svc.blobs` entry of the span. */
export function entry(
  key: string,
  sha256: string,
  size: number,
  contentType: string,
  name?: string,
): ListedFile {
  return {
    key,
    sha256,
    size,
    contentType,
    name: name ?? null,
    role: null,
    spanId: '00f067aa0ba902b7',
    record: 'span',
    listed: true,
  };
}

/** Every part, tool results' parts included. */
export function allParts(parts: readonly MessagePart[]): MessagePart[] {
  return parts.flatMap((part) => (part.type === 'tool_result' ? [part, ...allParts(part.parts)] : [part]));
}

/** The files of the messages and below them. */
export function filesOf(result: NormalizedMessages): MessageFile[] {
  return [...placedFiles(result.messages.flatMap((m) => m.parts)), ...result.belowMessages].flatMap(
    (placed) => (placed.type === 'file' ? [placed.file] : []),
  );
}

/** The messages as `role: part kinds`. */
export function shape(result: NormalizedMessages): string[] {
  const kind = (part: MessagePart): string =>
    part.type === 'tool_result' ? `tool_result(${part.parts.map(kind).join(' ')})` : part.type;
  return result.messages.map((m) => `${m.role}: ${m.parts.map(kind).join(' ')}`);
}
