/**
 * The text of an OTLP JSON request body.
 *
 * The body must be UTF-8 (RFC 8259 requires it of JSON exchanged between systems, and OTLP's
 * protobuf strings are UTF-8 too): a body that is not is malformed, answered 400 with nothing
 * stored, as a protobuf request with a string that is not UTF-8 is. Nothing is replaced silently.
 *
 * A `\u` escape can still write an unpaired surrogate (`"\ud83d"`, half of an emoji cut by
 * a `slice`), which no UTF-8 text can hold: OpenTelemetry's JSON serializer writes it so, while
 * its protobuf serializer, like every UTF-8 encoder, writes U+FFFD in its place. The same escape
 * is read here as `\ufffd`, so that the same span is stored alike from either exporter.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { MalformedExportError } from './malformed-export-error.js';

/** Where a surrogate escape may be (a quick test; an escaped backslash may precede it). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/g;
/**
 * One escape sequence of a JSON string, left to right, so that an escaped backslash is one match:
 * a high surrogate escape with the low one that completes it, a lone surrogate escape (6
 * characters, the only matches of that length), or any other escape's first two characters.
 */
const ESCAPE =
  /\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2}|[\s\S])/g;

function wellFormedEscape(sequence: string): string {
  return sequence.length === 6 ? '\\ufffd' : sequence;
}

/**
 * The text of a JSON request body (`ascii`: the body is ASCII, which `isAscii` tells). Throws
 * {@link MalformedExportError} when the body is not UTF-8. An unpaired surrogate escape becomes
 * `\ufffd`, in the text and, for an ASCII body, in the body itself (the escapes have the same
 * length), whose bytes the writer may store as they are.
 */
export function jsonText(body: Uint8Array, ascii: boolean): string {
  if (!ascii && !isUtf8(body)) throw new MalformedExportError('Request body is not valid UTF-8.');
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = buffer.toString('utf8');
  const first = text.indexOf('\\u');
  if (first < 0) return text;
  SURROGATE_ESCAPE.lastIndex = first;
  if (!SURROGATE_ESCAPE.test(text)) return text;
  const wellFormed = text.replace(ESCAPE, wellFormedEscape);
  if (ascii && wellFormed !== text) buffer.write(wellFormed, 'latin1');
  return wellFormed;
}
