/**
 * The part dispatcher: reads content values (strings, part lists, part objects) by trying each
 * format in turn, and finds the files and references in values that are not parts. Every walk is
 * bounded: parts more than ten levels below a value's root are kept as they are and never read
 * for files (spec "Automatic capture of files"), and strings holding JSON are parsed within the
 * 32 levels of nesting the value has left.
 * @module
 */

import type { BlobIndex } from '../files/blob-index.js';
import { readBytes } from '../files/byte-field.js';
import { PART_FORMATS } from '../formats/all-formats.js';
import { startsWithDataScheme } from '../media/data-url.js';
import { mediaReference } from '../media/remote-reference.js';
import type { MessagePart, PlacedFile } from '../message-types.js';
import { isObject, type JsonObject } from '../value/json-value.js';
import { looksLikeJsonContainer, parseJsonText } from '../value/parse-json-text.js';
import { childSite, MAX_PART_DEPTH, type Site } from '../value/site.js';
import { otherPart, remotePart, textPart } from './make-part.js';
import type { PartReader, ToolOutput } from './part-reader.js';
import { readToolOutput } from './tool-output.js';

/** The file and reference parts among `parts`, those inside tool results included. */
export function placedFiles(parts: readonly MessagePart[]): PlacedFile[] {
  const placed: PlacedFile[] = [];
  for (const part of parts) {
    if (part.type === 'file' || part.type === 'remote') placed.push(part);
    else if (part.type === 'text' && part.prefixOf !== undefined) {
      placed.push({ type: 'file', file: part.prefixOf, at: part.at });
    } else if (part.type === 'tool_result') placed.push(...placedFiles(part.parts));
  }
  return placed;
}

/** A reader that does not look inside parts: recognizes a part's own file without walking further. */
class ShallowReader implements PartReader {
  readonly blobs: BlobIndex;

  constructor(blobs: BlobIndex) {
    this.blobs = blobs;
  }

  content(): MessagePart[] {
    return [];
  }

  text(text: string, site: Site): MessagePart[] {
    return [textPart(text, site)];
  }

  part(): MessagePart[] {
    return [];
  }

  files(): PlacedFile[] {
    return [];
  }

  toolOutput(): ToolOutput {
    return { parts: [] };
  }
}

/** Reads parts and finds files (see the module). Never throws on any JSON value. */
export class PartsReader implements PartReader {
  readonly blobs: BlobIndex;
  private readonly shallow: ShallowReader;

  constructor(blobs: BlobIndex) {
    this.blobs = blobs;
    this.shallow = new ShallowReader(blobs);
  }

  content(value: unknown, site: Site): MessagePart[] {
    if (!Array.isArray(value)) return this.part(value, site);
    if (site.depth >= MAX_PART_DEPTH) return value.length === 0 ? [] : [otherPart(value, site)];
    const parts: MessagePart[] = [];
    for (let i = 0; i < value.length; i++) parts.push(...this.part(value[i], childSite(site, i)));
    return parts;
  }

  part(value: unknown, site: Site): MessagePart[] {
    if (value === undefined || value === null) return [];
    if (typeof value === 'string') return this.text(value, site);
    if (site.depth > MAX_PART_DEPTH) return [otherPart(value, site)];
    if (!isObject(value)) return [otherPart(value, site)];
    const parts = this.recognize(value, site, this);
    return parts ?? [otherPart(value, site), ...this.memberFiles(value, site)];
  }

  text(text: string, site: Site): MessagePart[] {
    const whole = this.wholeString(text, site);
    if (whole !== undefined) return [whole];
    if (site.depth > MAX_PART_DEPTH || !looksLikeJsonContainer(text)) return [textPart(text, site)];
    const parsed = parseJsonText(text, site.depth);
    return parsed.ok ? [textPart(text, site), ...this.files(parsed.value, site)] : [textPart(text, site)];
  }

  files(value: unknown, site: Site): PlacedFile[] {
    if (site.depth > MAX_PART_DEPTH) return [];
    if (typeof value === 'string') {
      const whole = this.wholeString(value, site);
      if (whole !== undefined) return placedFiles([whole]);
      if (!looksLikeJsonContainer(value)) return [];
      const parsed = parseJsonText(value, site.depth);
      return parsed.ok ? this.files(parsed.value, site) : [];
    }
    if (Array.isArray(value)) {
      const files: PlacedFile[] = [];
      for (let i = 0; i < value.length; i++) files.push(...this.files(value[i], childSite(site, i)));
      return files;
    }
    if (!isObject(value)) return [];
    // A part holding a file (or a reference) of its own is that file; anything else is walked.
    const own = placedFiles(this.recognize(value, site, this.shallow) ?? []).filter(
      (file) => file.at.pointer === site.pointer || file.at.pointer.startsWith(`${site.pointer}/`),
    );
    return own.length > 0 ? own : this.memberFiles(value, site);
  }

  toolOutput(value: unknown, site: Site): ToolOutput {
    return readToolOutput(value, site, this);
  }

  /** The files in the members of `value`. */
  private memberFiles(value: JsonObject, site: Site): PlacedFile[] {
    if (site.depth >= MAX_PART_DEPTH) return [];
    const files: PlacedFile[] = [];
    for (const key of Object.keys(value)) files.push(...this.files(value[key], childSite(site, key)));
    return files;
  }

  /** The parts the first format that reads `value` makes. */
  private recognize(value: JsonObject, site: Site, reader: PartReader): MessagePart[] | undefined {
    for (const format of PART_FORMATS) {
      const parts = format.read(value, site, reader);
      if (parts !== undefined) return parts;
    }
    return undefined;
  }

  /**
   * The part a string makes on its own: a media reference, or the file (or short text) a whole
   * data: URL holds; `undefined` for other strings.
   */
  private wholeString(text: string, site: Site): MessagePart | undefined {
    const reference = mediaReference(text);
    if (reference !== undefined) return remotePart(reference, site);
    if (!startsWithDataScheme(text)) return undefined;
    return readBytes(text, site, site, { encoding: 'data-url' }, this.blobs, true);
  }
}
