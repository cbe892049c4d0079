/**
 * `media.resolve` round trips on the real reference server: every recorded-message fixture (each
 * convention's file parts) is scanned into digest form, its files uploaded through the documented
 * routes and the span exported as OTLP JSON; the value the server stored is then resolved and must
 * equal what was recorded before scanning.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { allMessageFixtures, type MessageFixture } from '../../../../../fixtures/messages/index.js';
import { CAT_PNG, DOT_PNG } from '../../../../../fixtures/messages/media.js';
import type { FoundFile } from '../media-types.js';
import { findDigestHolders, scanAttribute, scanStructured } from '../scan/index.js';
import { sha256Hex, sourceBytes } from '../scan/test-support.js';
import { plain } from '../upload/__fixtures__/media-server.js';
import {
  blobEntry,
  exportSpan,
  newSpanId,
  newTraceId,
  uploadFile,
  useMediaServer,
} from './__fixtures__/media-server.js';
import {
  attributeFixturesWithFiles,
  entryOf,
  FORM_CHANGES,
  filesIn,
  recordFixture,
} from './__fixtures__/recorded-fixtures.js';
import { createMediaReader, type MediaReader } from './media-reader.js';

const server = useMediaServer();

function reader(): MediaReader {
  return createMediaReader({ apiKey: server().keys.read, baseUrl: server().origin, timeoutMillis: 60_000 });
}

/** Records `fixture` as the SDK would: digest form, uploads, and the span with its svc.blobs. */
async function record(fixture: MessageFixture, traceId: string, spanId: string) {
  const { text, scanned, found } = recordFixture(fixture);
  for (const file of found) {
    await uploadFile(server(), traceId, sourceBytes(file.source), file.contentType, file.key);
  }
  const blobs = found.map(entryOf);
  await exportSpan(server(), traceId, spanId, { [fixture.attribute]: scanned, 'svc.blobs': blobs });
  return { text, found, scanned, blobs };
}

/** The stored attributes of a span, as plain values. */
function storedAttributes(traceId: string, spanId: string): Record<string, unknown> {
  const span = server()
    .traceStore.listSpans(traceId)
    .find((s) => s.spanId === spanId);
  if (span === undefined) throw new Error('span not stored');
  return Object.fromEntries(span.attributes.map(({ key, value }) => [key, plain(value as never)]));
}

describe('media.resolve restores every convention recorded in digest form', () => {
  it('has attribute fixtures with files to run', () => {
    expect(attributeFixturesWithFiles.length).toBeGreaterThan(10);
    for (const name of FORM_CHANGES) expect(attributeFixturesWithFiles.map((f) => f.name)).toContain(name);
  });

  it.each(attributeFixturesWithFiles.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const { text, found, scanned } = await record(fixture, traceId, spanId);
    expect(found.map((f) => f.sha256).sort()).toEqual(fixture.files.map((f) => f.sha256).sort());
    expect(scanned).not.toBe(text);

    const stored = storedAttributes(traceId, spanId);
    expect(stored[fixture.attribute]).toBe(scanned);
    const { value, failures } = await reader().resolve(stored[fixture.attribute], {
      traceId,
      spanId,
      blobs: stored['svc.blobs'] as string[],
    });
    expect(failures).toEqual([]);
    expect(stored[fixture.attribute]).toBe(scanned);
    // JSON text comes back as JSON text, holding the same files at the same places.
    expect(typeof value).toBe('string');
    expect(findDigestHolders(JSON.parse(value as string))).toEqual([]);
    expect(filesIn(fixture, value as string)).toEqual(filesIn(fixture, text));
    if (FORM_CHANGES.has(fixture.name)) return;
    // Elsewhere it is exactly the value recorded before scanning.
    if (fixture.text === true) expect(value).toBe(text);
    else expect(JSON.parse(value as string)).toEqual(JSON.parse(text));
  });
});

describe('media.resolve options and outcomes', () => {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${CAT_PNG.base64}` } };
  const dot = { type: 'image_url', image_url: { url: `data:image/png;base64,${DOT_PNG.base64}` } };
  const neverUploaded = randomBytes(70_000);
  const neverPart = {
    type: 'input_audio',
    input_audio: { data: neverUploaded.toString('base64'), format: 'wav' },
  };
  const messages = [
    { role: 'user', content: [{ type: 'text', text: 'look' }, image, neverPart, image, dot] },
  ];
  let recorded: unknown;
  let blobs: string[];

  beforeAll(async () => {
    const found: FoundFile[] = [];
    const text = scanAttribute('gen_ai.input.messages', JSON.stringify(messages), (file) => {
      found.push(file);
      return 'upload';
    }).value;
    recorded = JSON.parse(text);
    // The PNGs upload; the audio is listed but its bytes never arrive; the dot is refused (not listed).
    const cat = found.find((f) => f.sha256 === CAT_PNG.sha256)!;
    await uploadFile(server(), traceId, CAT_PNG.bytes, 'image/png', cat.key);
    blobs = found.filter((f) => f.sha256 !== DOT_PNG.sha256).map(entryOf);
    await exportSpan(server(), traceId, spanId, { 'gen_ai.input.messages': text, 'svc.blobs': blobs });
  });

  it('restores what it can, reports the rest, and leaves the input untouched', async () => {
    const before = structuredClone(recorded);
    const { value, failures } = await reader().resolve(recorded, { traceId, spanId, blobs });
    expect(recorded).toEqual(before);
    const content = (value as typeof messages)[0]!.content;
    expect(content[1]).toEqual(image);
    expect(content[3]).toEqual(image);
    // Not restored parts stay in digest form, exactly as recorded.
    const recordedContent = (recorded as typeof messages)[0]!.content;
    expect(content[2]).toBe(recordedContent[2]);
    expect(content[4]).toBe(recordedContent[4]);
    expect(content[0]).toBe(recordedContent[0]);
    expect(failures).toEqual([
      { pointer: '/0/content/2', sha256: sha256Hex(neverUploaded), reason: 'missing' },
      { pointer: '/0/content/4', sha256: DOT_PNG.sha256, reason: 'not_listed' },
    ]);
  });

  it("as: 'bytes' puts a Uint8Array in place of each restored part", async () => {
    const { value } = await reader().resolve(recorded, { traceId, blobs, as: 'bytes' });
    const content = (value as unknown[][])[0] as unknown as { content: unknown[] };
    expect(content.content[1]).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(content.content[1] as Uint8Array).equals(Buffer.from(CAT_PNG.bytes))).toBe(true);
    expect(content.content[3]).toBe(content.content[1]);
  });

  it('reports too_large per file with maxBytes, and forbidden with a Tracing key, without throwing', async () => {
    const small = await reader().resolve(recorded, { traceId, blobs, maxBytes: CAT_PNG.size - 1 });
    expect(small.failures.map((f) => [f.pointer, f.reason])).toEqual([
      ['/0/content/1', 'too_large'],
      ['/0/content/2', 'missing'],
      ['/0/content/3', 'too_large'],
      ['/0/content/4', 'not_listed'],
    ]);
    const tracing = createMediaReader({ apiKey: server().keys.tracing, baseUrl: server().origin });
    const refused = await tracing.resolve(recorded, { traceId, blobs });
    expect(refused.failures.map((f) => f.reason)).toEqual([
      'forbidden',
      'forbidden',
      'forbidden',
      'not_listed',
    ]);
    expect(refused.value).toBe(recorded);
  });

  it('returns the value itself when it holds no file in digest form', async () => {
    const plain = [{ role: 'user', content: 'hello' }];
    const { value, failures } = await reader().resolve(plain, { traceId, blobs: [] });
    expect(value).toBe(plain);
    expect(failures).toEqual([]);
    const text = await reader().resolve('not json {', { traceId, blobs: [] });
    expect(text.value).toBe('not json {');
  });

  it('validates its options before any request', async () => {
    await expect(reader().resolve(recorded, { traceId, blobs: 'nope' as never })).rejects.toThrow(
      /^blobs must be the record's svc\.blobs entries/,
    );
    await expect(reader().resolve(recorded, { traceId } as never)).rejects.toThrow(/got undefined$/);
    await expect(reader().resolve(recorded, { traceId, blobs, as: 'base64' as never })).rejects.toThrow(
      `as must be 'inline' or 'bytes'; got "base64"`,
    );
    await expect(reader().resolve(recorded, { traceId: 'x', blobs })).rejects.toThrow(/^traceId must be/);
    await expect(reader().resolve(recorded, null as never)).rejects.toThrow(
      'media.resolve options must be an object; got null',
    );
    for (const attribute of ['', 'gen_ai.input.messages#', 7]) {
      await expect(
        reader().resolve(recorded, { traceId, blobs, attribute: attribute as never }),
      ).rejects.toThrow(/^attribute must be the name of the attribute the value was read from/);
    }
  });
});

describe('media.resolve of a value uploaded whole (over 1 MiB)', () => {
  const attribute = 'gen_ai.input.messages';
  const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${CAT_PNG.base64}` } };
  const messages = [
    { role: 'user', content: [{ type: 'text', text: 'résumé '.repeat(200_000) }, image] },
    { role: 'assistant', content: 'done' },
  ];
  const original = JSON.stringify(messages);

  /** Records `messages` as the SDK would, uploading the files `upload` keeps; returns the stored prefix and blobs. */
  async function recordLarge(traceId: string, upload: (file: FoundFile) => boolean) {
    const found: FoundFile[] = [];
    const prefix = scanAttribute(attribute, original, (file) => {
      found.push(file);
      return 'upload';
    }).value;
    expect(found.map((f) => f.key).sort()).toEqual([`${attribute}#`, `${attribute}#/0/content/1`]);
    for (const file of found.filter(upload)) {
      await uploadFile(server(), traceId, sourceBytes(file.source), file.contentType, file.key);
    }
    const spanId = newSpanId();
    await exportSpan(server(), traceId, spanId, { [attribute]: prefix, 'svc.blobs': found.map(entryOf) });
    const stored = storedAttributes(traceId, spanId);
    return { prefix: stored[attribute] as string, blobs: stored['svc.blobs'] as string[], found };
  }

  it('reads the whole value back in place of its prefix, and restores its files', async () => {
    const traceId = newTraceId();
    const { prefix, blobs } = await recordLarge(traceId, () => true);
    expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(16 * 1024);
    expect(original.startsWith(prefix)).toBe(true);

    const { value, failures } = await reader().resolve(prefix, { traceId, blobs, attribute });
    expect(failures).toEqual([]);
    expect(value).toBe(original);
    // Without naming the attribute, the prefix is returned as kept.
    expect((await reader().resolve(prefix, { traceId, blobs })).value).toBe(prefix);
    // Another attribute's name does not pick this upload.
    expect(
      (await reader().resolve(prefix, { traceId, blobs, attribute: 'gen_ai.output.messages' })).value,
    ).toBe(prefix);
  });

  it('keeps the prefix and reports prefix_only when the whole value was never stored, or why it was not read', async () => {
    const traceId = newTraceId();
    const { prefix, blobs, found } = await recordLarge(traceId, (file) => file.key !== `${attribute}#`);
    const whole = found.find((f) => f.key === `${attribute}#`)!;
    const missing = await reader().resolve(prefix, { traceId, blobs, attribute });
    expect(missing).toEqual({
      value: prefix,
      failures: [{ pointer: '', sha256: whole.sha256, reason: 'prefix_only' }],
    });

    const storedTrace = newTraceId();
    const uploaded = await recordLarge(storedTrace, () => true);
    const tooLarge = await reader().resolve(uploaded.prefix, {
      traceId: storedTrace,
      blobs: uploaded.blobs,
      attribute,
      maxBytes: 1024 * 1024,
    });
    expect(tooLarge).toEqual({
      value: uploaded.prefix,
      failures: [{ pointer: '', sha256: whole.sha256, reason: 'too_large' }],
    });
  });
});

describe('media.resolve on a log record body', () => {
  it('restores files of a structured body scanned with body# keys', async () => {
    const fixture = allMessageFixtures.find((f) => f.attribute === 'body' && f.files.length > 0);
    expect(fixture).toBeDefined();
    const traceId = newTraceId();
    const found: FoundFile[] = [];
    const scanned = scanStructured(fixture!.value, 'body', (file) => {
      found.push(file);
      return 'upload';
    }).value;
    expect(findDigestHolders(scanned).length).toBeGreaterThan(0);
    for (const file of found) {
      await uploadFile(server(), traceId, sourceBytes(file.source), file.contentType, file.key);
    }
    const { value, failures } = await reader().resolve(scanned, {
      traceId,
      blobs: found.map((f) => blobEntry(f.key, sourceBytes(f.source), f.contentType)),
    });
    expect(failures).toEqual([]);
    expect(value).toEqual(fixture!.value);
  });
});
