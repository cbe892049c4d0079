/**
 * The recorded-message fixtures (`fixtures/messages/`) put in digest form by the scanner, as the
 * SDK records them, for the reader's tests.
 * @module
 */
import {
  allMessageFixtures,
  attributeText,
  type MessageFixture,
} from '../../../../../../fixtures/messages/index.js';
import type { FoundFile } from '../../media-types.js';
import { scanAttribute } from '../../scan/index.js';

/** Fixtures of span attributes holding files. */
export const attributeFixturesWithFiles: readonly MessageFixture[] = allMessageFixtures.filter(
  (f) => f.files.length > 0 && f.attribute !== 'body',
);

/**
 * Fixtures whose files come back in another form of the same convention, because digest form does
 * not say which form was recorded: AI SDK parts hold base64 or a data: URL alike (restored as the
 * recognizer writes them), and a whole data: URL string became a GenAI blob part (restored as a
 * blob part with base64 `content`). Their bytes, places and types still round-trip.
 */
export const FORM_CHANGES: ReadonlySet<string> = new Set([
  'ai-sdk v7: ai.prompt with base64, data URL and Uint8Array parts',
  'ai-sdk v7: gen_ai.input.messages blob parts from @ai-sdk/otel OpenTelemetry',
  'ai-sdk v6: telemetry metadata value that is one data: URL',
  'openinference: flattened image url attribute holding a whole data: URL',
  'openinference: metadata with a data: URL value',
  'openllmetry: traceloop.entity.input with a data: URL argument',
  'langfuse: trace metadata with a data: URL value',
]);

/** The `svc.blobs` entry of a found file, as the SDK writes it. */
export function entryOf(file: FoundFile): string {
  return JSON.stringify({
    key: file.key,
    sha256: file.sha256,
    size: file.size,
    content_type: file.contentType,
    ...(file.name === undefined ? {} : { name: file.name }),
  });
}

/** A fixture's attribute as recorded with every file uploaded: the text before and after, and the files. */
export function recordFixture(fixture: MessageFixture): {
  text: string;
  scanned: string;
  found: FoundFile[];
} {
  const found: FoundFile[] = [];
  const text = attributeText(fixture);
  const decide = (file: FoundFile) => {
    found.push(file);
    return 'upload' as const;
  };
  const scanned = scanAttribute(fixture.attribute, text, decide, fixture.spanAttributes).value;
  return { text, scanned, found };
}

/** What scanning finds in an attribute value of `fixture`: each file's key, digest, size, type and name. */
export function filesIn(fixture: MessageFixture, text: string) {
  const files: Omit<FoundFile, 'source' | 'modality'>[] = [];
  scanAttribute(
    fixture.attribute,
    text,
    ({ key, sha256, size, contentType, name }) => {
      files.push({ key, sha256, size, contentType, ...(name === undefined ? {} : { name }) });
      return 'keep';
    },
    fixture.spanAttributes,
  );
  return files;
}
