/**
 * The contract between the part dispatcher and the per-format part readers: a format reads one
 * part object of its own shape and asks the reader for what nests inside it (a tool result's
 * content, the files in a tool call's arguments), so recursion stays in one place with one depth
 * bound.
 * @module
 */

import type { BlobIndex } from '../files/blob-index.js';
import type { MessagePart, PlacedFile } from '../message-types.js';
import type { JsonObject } from '../value/json-value.js';
import type { Site } from '../value/site.js';

/** What a tool returned, as parts. */
export interface ToolOutput {
  parts: MessagePart[];
  isError?: boolean;
}

/** Reads what nests inside a part. Every method is depth-bounded and never throws. */
export interface PartReader {
  /** The record's listed files. */
  readonly blobs: BlobIndex;
  /** The parts of a content value: a string, a list of parts, or one part. */
  content(value: unknown, site: Site): MessagePart[];
  /**
   * The parts a text makes: the text, or the file or reference it wholly is (a data: URL, an
   * external media reference), or the text followed by the files of the JSON it holds.
   */
  text(text: string, site: Site): MessagePart[];
  /** The parts one item of a content list makes (usually one). */
  part(value: unknown, site: Site): MessagePart[];
  /** The files and remote references anywhere in a value that is not a part list (tool arguments, metadata). */
  files(value: unknown, site: Site): PlacedFile[];
  /** What a tool returned: a string (maybe JSON text), an MCP result, an AI SDK output, parts. */
  toolOutput(value: unknown, site: Site): ToolOutput;
}

/** One format's part shapes. */
export interface PartFormat {
  /** The format, and the published type its shapes come from. */
  readonly name: string;
  /** The parts `part` (at `site`) makes in this format, or `undefined` when it is not one of its shapes. */
  read(part: JsonObject, site: Site, reader: PartReader): MessagePart[] | undefined;
}
