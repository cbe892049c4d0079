/**
 * Generators of the scanner's property tests: JSON documents that hold files in every recognized
 * form (and filler without files, nested and encoded in JSON strings), each with the text the
 * scanner must turn it into.
 * @module
 */

import fc from 'fast-check';
import { digestMembers } from './test-support.js';

/** A piece of recorded JSON text, and the text the scanner must turn it into. */
export interface Piece {
  input: string;
  output: string;
  files: number;
}

type Form = (base64: string, digest: string, bytes: Uint8Array) => [input: string, output: string];

/** Every recognized way of recording a PNG, as [recorded text, digest-form text]. */
export const FORMS: Record<string, Form> = {
  'openai image_url': (b, d) => [
    `{"type":"image_url","image_url":{"url":"data:image/png;base64,${b}","detail":"low"}}`,
    `{"type":"image_url","image_url":{${d},"detail":"low"}}`,
  ],
  'openai input_audio': (b, d) => [
    `{"type":"input_audio","input_audio":{"format":"wav","data":"${b}"}}`,
    `{"type":"input_audio","input_audio":{"format":"wav",${d}}}`,
  ],
  'openai file': (b, d) => [
    `{"type":"file","file":{"filename":"a.pdf","file_data":"data:application/pdf;base64,${b}"}}`,
    `{"type":"file","file":{"filename":"a.pdf",${d}}}`,
  ],
  'openai assistant audio': (b, d) => [
    `{"role":"assistant","content":"hi","audio":{"id":"a1","data":"${b}"}}`,
    `{"role":"assistant","content":"hi","audio":{"id":"a1",${d}}}`,
  ],
  'responses input_image': (b, d) => [
    `{"type":"input_image","image_url":"data:image/png;base64,${b}"}`,
    `{"type":"input_image",${d}}`,
  ],
  'responses input_file': (b, d) => [
    `{"type":"input_file","file_data":"data:application/pdf;base64,${b}","filename":"a.pdf"}`,
    `{"type":"input_file",${d},"filename":"a.pdf"}`,
  ],
  'anthropic image': (b, d) => [
    `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${b}"}}`,
    `{"type":"image","source":{"type":"base64","media_type":"image/png",${d}}}`,
  ],
  'anthropic document': (b, d) => [
    `{"type":"document","title":"Q3","source":{"type":"base64","media_type":"application/pdf","data":"${b}"}}`,
    `{"type":"document","title":"Q3","source":{"type":"base64","media_type":"application/pdf",${d}}}`,
  ],
  'gemini inlineData': (b, d) => [
    `{"inlineData":{"mimeType":"image/png","data":"${b}"}}`,
    `{"inlineData":{"mimeType":"image/png",${d}}}`,
  ],
  'gemini inline_data': (b, d) => [
    `{"inline_data":{"data":"${b}","mime_type":"audio/L16;rate=16000"}}`,
    `{"inline_data":{${d},"mime_type":"audio/L16;rate=16000"}}`,
  ],
  'bedrock image': (b, d) => [
    `{"image":{"format":"png","source":{"bytes":"${b}"}}}`,
    `{"image":{"format":"png","source":{${d}}}}`,
  ],
  'bedrock document': (b, d) => [
    `{"document":{"format":"pdf","name":"Q3","source":{"bytes":"${b}"}}}`,
    `{"document":{"format":"pdf","name":"Q3","source":{${d}}}}`,
  ],
  'mcp image': (b, d) => [
    `{"type":"image","data":"${b}","mimeType":"image/png"}`,
    `{"type":"image",${d},"mimeType":"image/png"}`,
  ],
  'mcp resource': (b, d) => [
    `{"type":"resource","resource":{"uri":"file:///a.bin","mimeType":"application/octet-stream","blob":"${b}"}}`,
    `{"type":"resource","resource":{"uri":"file:///a.bin","mimeType":"application/octet-stream",${d}}}`,
  ],
  'langchain data block': (b, d) => [
    `{"type":"image","source_type":"base64","data":"${b}","mime_type":"image/png"}`,
    `{"type":"image","source_type":"base64",${d},"mime_type":"image/png"}`,
  ],
  'ai-sdk image base64': (b, d) => [
    `{"type":"image","image":"${b}","mediaType":"image/png"}`,
    `{"type":"image",${d},"mediaType":"image/png"}`,
  ],
  'ai-sdk image bytes': (_b, d, bytes) => [
    `{"type":"image","image":[${Array.from(bytes).join(', ')}],"mediaType":"image/png"}`,
    `{"type":"image",${d},"mediaType":"image/png"}`,
  ],
  'ai-sdk file data URL': (b, d) => [
    `{"type":"file","data":"data:application/pdf;base64,${b}","filename":"q.pdf"}`,
    `{"type":"file",${d},"filename":"q.pdf"}`,
  ],
  'genai blob': (b, d) => [
    `{"type":"blob","modality":"image","mime_type":"image/png","content":"${b}"}`,
    `{"type":"blob","modality":"image","mime_type":"image/png",${d}}`,
  ],
  'whole data URL': (b, d) => [
    `"data:image/png;base64,${b}"`,
    `{"type":"blob","mime_type":"image/png","modality":"image",${d}}`,
  ],
};

/** JSON without files (and without integers past 2^53, which keep a value as text). */
const filler: fc.Arbitrary<Piece> = fc
  .tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(undefined, 1, '\t'))
  .map(([value, space]) => {
    const text = JSON.stringify(value, null, space);
    return { input: text, output: text, files: 0 };
  })
  .filter((piece) => !/[0-9]{16}/.test(piece.input));

const space = fc.constantFrom('', ' ', '\n  ', '\t');

/**
 * Generated documents, each wrapped in one array: filler, files recorded in the named
 * {@link FORMS} (all by default), arrays, objects, and arrays or objects encoded in JSON strings.
 */
export function documentsWith(forms: readonly string[] = Object.keys(FORMS)): fc.Arbitrary<Piece> {
  const mediaPiece: fc.Arbitrary<Piece> = fc
    .tuple(fc.constantFrom(...forms), fc.uint8Array({ minLength: 1, maxLength: 48 }), fc.boolean())
    .map(([form, bytes, urlSafe]) => {
      const buffer = Buffer.from(bytes);
      const base64 =
        urlSafe && form !== 'whole data URL' ? buffer.toString('base64url') : buffer.toString('base64');
      const [input, output] = FORMS[form]!(base64, digestMembers(bytes), bytes);
      return { input, output, files: 1 };
    });

  const { doc } = fc.letrec<{ doc: Piece; array: Piece; object: Piece; encoded: Piece }>((tie) => ({
    doc: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      filler,
      mediaPiece,
      tie('array'),
      tie('object'),
      tie('encoded'),
    ),
    array: fc.array(fc.tuple(space, tie('doc')), { maxLength: 4 }).map((items) => ({
      input: `[${items.map(([s, piece]) => s + piece.input).join(',')}]`,
      output: `[${items.map(([s, piece]) => s + piece.output).join(',')}]`,
      files: items.reduce((sum, [, piece]) => sum + piece.files, 0),
    })),
    object: fc
      .uniqueArray(fc.tuple(fc.string(), space, tie('doc')), { maxLength: 4, selector: ([key]) => key })
      .map((members) => ({
        input: `{${members.map(([key, s, piece]) => `${JSON.stringify(`k${key}`)}:${s}${piece.input}`).join(',')}}`,
        output: `{${members.map(([key, s, piece]) => `${JSON.stringify(`k${key}`)}:${s}${piece.output}`).join(',')}}`,
        files: members.reduce((sum, [, , piece]) => sum + piece.files, 0),
      })),
    encoded: fc.oneof(tie('array'), tie('object')).map((piece) => ({
      input: JSON.stringify(piece.input),
      output: JSON.stringify(piece.output),
      files: piece.files,
    })),
  }));

  return doc.map((piece) => ({
    input: `[${piece.input}]`,
    output: `[${piece.output}]`,
    files: piece.files,
  }));
}

/** Generated documents with files in every form (see {@link documentsWith}). */
export const documents: fc.Arbitrary<Piece> = documentsWith();
