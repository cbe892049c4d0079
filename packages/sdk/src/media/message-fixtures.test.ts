/**
 * Checks the recorded-message fixtures under `fixtures/` (shared with the Python SDK): every
 * declared file's digest and size match the bytes at its pointer, no media is left undeclared, the
 * JSON copies equal their TypeScript modules, the media files are valid and equal the generator's
 * output, and the AI SDK fixtures equal what the AI SDK really records.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { isScannedAttribute } from '@svc-run/conventions';
import { generateText, type Telemetry } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { generateText as generateTextV6 } from 'ai6';
import { MockLanguageModelV3 } from 'ai6/test';
import { describe, expect, it } from 'vitest';
import { crc32, generateMedia } from '../../../../fixtures/media/generate.mjs';
import {
  aiSdkV6Fixtures,
  aiSdkV6Messages,
  aiSdkV6Metadata,
} from '../../../../fixtures/messages/ai-sdk-v6.js';
import { aiSdkV7Fixtures, aiSdkV7Messages } from '../../../../fixtures/messages/ai-sdk-v7.js';
import {
  allMessageFixtures,
  attributeText,
  blobKey,
  type MessageFixture,
  type MessageFixtureSet,
  messageFixtureSets,
} from '../../../../fixtures/messages/index.js';
import { CAT_PNG, DOT_PNG, MEDIA_FILES } from '../../../../fixtures/messages/media.js';
import { TEXT_INLINE_LIMIT } from './media-types.js';

const ROOT = new URL('../../../../', import.meta.url);
const MESSAGES_DIR = new URL('fixtures/messages/', ROOT);

// ---------------------------------------------------------------------------------------------
// JSON pointers and byte decoding

/** The tokens of an RFC 6901 pointer; throws on a pointer that is neither "" nor starts with "/". */
function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new TypeError(`not a JSON pointer: ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function escapeToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The value at `pointer`, or `{ found: false }`. */
function resolvePointer(root: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  let current = root;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < current.length) {
      current = current[Number(token)];
    } else if (
      current !== null &&
      typeof current === 'object' &&
      !Array.isArray(current) &&
      Object.hasOwn(current, token)
    ) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** A string whose text is a JSON object or array, parsed; else `undefined`. */
function parseJsonText(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether `value` is `JSON.stringify` of a `Uint8Array`: `{"0":n,"1":n,…}`. */
function isNumberedBytes(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length > 0 && entries.every(([key, byte], i) => key === String(i) && typeof byte === 'number')
  );
}

interface DecodedString {
  bytes: Buffer;
  /** The media type a data: URL declares. */
  declared?: string;
}

/** Decodes a data: URL or bare standard base64; `undefined` when the string is neither. */
function decodeString(text: string): DecodedString | undefined {
  if (text.startsWith('data:')) {
    const comma = text.indexOf(',');
    if (comma < 0) return undefined;
    const header = text.slice(5, comma);
    const payload = text.slice(comma + 1);
    const params = header.split(';');
    const declared = params[0] === '' ? undefined : params[0];
    const bytes = params.includes('base64')
      ? Buffer.from(payload, 'base64')
      : Buffer.from(decodeURIComponent(payload), 'utf8');
    return declared === undefined ? { bytes } : { bytes, declared };
  }
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  return { bytes: Buffer.from(text, 'base64') };
}

/**
 * Where each format keeps a part's bytes, relative to the part: OpenAI chat (`image_url.url`,
 * `input_audio.data`, `file.file_data`), OpenAI responses (`image_url`, `file_data`), assistant
 * `audio.data`, Anthropic `source.data`, Gemini `inlineData.data` / `inline_data.data`, Bedrock
 * `<kind>.source.bytes`, MCP `data` / `resource.blob`, AI SDK `image` / `data`, GenAI `content`.
 */
const BYTE_FIELDS: readonly string[] = [
  '/image_url/url',
  '/input_audio/data',
  '/file/file_data',
  '/image_url',
  '/file_data',
  '/audio/data',
  '/source/data',
  '/inlineData/data',
  '/inline_data/data',
  '/image/source/bytes',
  '/document/source/bytes',
  '/video/source/bytes',
  '/resource/blob',
  '/data',
  '/image',
  '/content',
];

interface PartBytes extends DecodedString {
  /** Pointer of the byte field relative to the part ("" for a whole string). */
  field: string;
}

/** The bytes a part holds, or a problem. */
function partBytes(part: unknown): PartBytes | string {
  if (typeof part === 'string') {
    const decoded = decodeString(part);
    return decoded === undefined ? 'the string is neither a data: URL nor base64' : { ...decoded, field: '' };
  }
  const found: PartBytes[] = [];
  for (const field of BYTE_FIELDS) {
    const at = resolvePointer(part, field);
    if (!at.found) continue;
    if (typeof at.value === 'string') {
      const decoded = decodeString(at.value);
      if (decoded !== undefined) found.push({ ...decoded, field });
    } else if (isNumberedBytes(at.value)) {
      return `${field} is an object of numbered bytes, which is not a file`;
    }
  }
  if (found.length === 0) return 'the part holds no bytes in a known field';
  if (found.length > 1) return `the part holds bytes in ${found.map((f) => f.field).join(' and ')}`;
  return found[0]!;
}

/** The media type the bytes' signature says, or `undefined` (raw PCM has none). */
function signatureType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE')
    return 'audio/wav';
  if (bytes.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

const TYPE_FIELDS = ['mediaType', 'mime_type', 'mimeType', 'media_type', 'format'];

/** The part's JSON text without its bytes, to look for the media type it names. */
function partTextWithoutBytes(part: unknown, field: string): string {
  if (field === '' || part === null || typeof part !== 'object') return '';
  const copy = structuredClone(part) as Record<string, unknown>;
  const tokens = pointerTokens(field);
  let holder: Record<string, unknown> = copy;
  for (const token of tokens.slice(0, -1)) holder = holder[token] as Record<string, unknown>;
  delete holder[tokens.at(-1)!];
  return JSON.stringify(copy);
}

/**
 * The file name a part gives (spec: a part's file name, name or title; an embedded MCP resource's
 * URI's last segment).
 */
function partName(part: unknown): string | undefined {
  for (const field of ['/filename', '/file/filename', '/name', '/title', '/document/name']) {
    const at = resolvePointer(part, field);
    if (at.found && typeof at.value === 'string') return at.value;
  }
  const uri = resolvePointer(part, '/resource/uri');
  if (uri.found && typeof uri.value === 'string') return uri.value.split('/').at(-1);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Checking one fixture

/** Pointers of every place in `value` holding media bytes (entering JSON-encoded strings). */
function mediaLocations(value: unknown, pointer = ''): string[] {
  if (typeof value === 'string') {
    const inner = parseJsonText(value);
    if (inner !== undefined) return mediaLocations(inner, pointer);
    return MEDIA_FILES.some((media) => value.includes(media.base64)) ? [pointer] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => mediaLocations(item, `${pointer}/${i}`));
  if (isNumberedBytes(value)) return [pointer];
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      mediaLocations(item, `${pointer}/${escapeToken(key)}`),
    );
  }
  return [];
}

function covers(pointer: string, location: string): boolean {
  return location === pointer || location.startsWith(`${pointer}/`);
}

/** The part a file points at, entering the JSON-encoded string at `encodedAt`. */
function resolveFilePart(value: unknown, pointer: string, encodedAt: string | undefined) {
  if (encodedAt === undefined) return resolvePointer(value, pointer);
  if (!covers(encodedAt, pointer) || pointer === encodedAt) return { found: false } as const;
  const encoded = resolvePointer(value, encodedAt);
  if (!encoded.found || typeof encoded.value !== 'string') return { found: false } as const;
  return resolvePointer(parseJsonText(encoded.value), pointer.slice(encodedAt.length));
}

/** Everything wrong with a fixture (empty when it is right). */
function fixtureProblems(fixture: MessageFixture): string[] {
  const problems: string[] = [];
  if (fixture.attribute === 'body') {
    if (fixture.eventName?.startsWith('gen_ai.') !== true)
      problems.push('a body fixture needs a gen_ai.* eventName');
  } else if (!isScannedAttribute(fixture.attribute)) {
    problems.push(`${fixture.attribute} is not a scanned attribute`);
  }
  if (fixture.text === true && typeof fixture.value !== 'string')
    problems.push('text is set but value is not a string');

  const keys = new Set<string>();
  for (const file of fixture.files) {
    const where = `file ${file.pointer || '""'}`;
    if (keys.has(blobKey(fixture, file))) problems.push(`${where}: duplicate key`);
    keys.add(blobKey(fixture, file));
    const part = resolveFilePart(fixture.value, file.pointer, file.encodedAt);
    if (!part.found) {
      problems.push(`${where}: the pointer does not resolve`);
      continue;
    }
    const bytes = partBytes(part.value);
    if (typeof bytes === 'string') {
      problems.push(`${where}: ${bytes}`);
      continue;
    }
    if (createHash('sha256').update(bytes.bytes).digest('hex') !== file.sha256) {
      problems.push(`${where}: sha256 does not match the bytes`);
    }
    if (bytes.bytes.length !== file.size)
      problems.push(`${where}: size ${file.size} is not ${bytes.bytes.length}`);
    const signature = signatureType(bytes.bytes);
    const expected = signature ?? 'audio/pcm;rate=';
    if (signature === undefined ? !file.mediaType.startsWith(expected) : file.mediaType !== expected) {
      problems.push(`${where}: media type ${file.mediaType} does not fit the bytes (${expected})`);
    }
    if (partName(part.value) !== file.name) {
      problems.push(
        `${where}: name ${JSON.stringify(file.name)} is not the part's ${JSON.stringify(partName(part.value))}`,
      );
    }
    const rest = partTextWithoutBytes(part.value, bytes.field);
    const named =
      bytes.declared !== undefined ||
      TYPE_FIELDS.some((field) => rest.includes(`"${field}":"`) || rest.includes(`"${field}":{`));
    if (file.sniffed === true && named) problems.push(`${where}: sniffed, but the part names its media type`);
    if (file.sniffed !== true && !named && fixture.spanAttributes === undefined) {
      problems.push(`${where}: the part does not name its media type (set sniffed)`);
    }
  }

  const kept = fixture.kept ?? [];
  for (const { pointer } of kept) {
    if (!resolvePointer(fixture.value, pointer).found)
      problems.push(`kept ${pointer || '""'}: the pointer does not resolve`);
    if (fixture.files.some((file) => covers(pointer, file.pointer) || covers(file.pointer, pointer))) {
      problems.push(`kept ${pointer || '""'}: also a file`);
    }
  }

  const locations = mediaLocations(fixture.value);
  for (const location of locations) {
    const declared = fixture.files.some((file) => covers(file.pointer, location));
    if (!declared && !kept.some((k) => covers(k.pointer, location))) {
      problems.push(`media at ${location || '""'} is neither a declared file nor kept`);
    }
  }
  const firstSeen = fixture.files.map((file) =>
    locations.findIndex((location) => covers(file.pointer, location)),
  );
  if (firstSeen.some((index, i) => i > 0 && index < firstSeen[i - 1]!))
    problems.push('files are not in reading order');
  return problems;
}

/** Why a set's JSON copy differs from its module, or `undefined`. */
function jsonCopyProblem(set: MessageFixtureSet, copyText: string): string | undefined {
  let copy: unknown;
  try {
    copy = JSON.parse(copyText);
  } catch {
    return `${set.module}.json is not JSON`;
  }
  const expected = JSON.parse(JSON.stringify(set.fixtures)) as unknown;
  const actual = (copy as { fixtures?: unknown }).fixtures;
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    return `${set.module}.json differs from ${set.module}.ts: run node fixtures/messages/export-json.mjs`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

describe('recorded-message fixtures', () => {
  it('cover every format the brief lists, with unique names', () => {
    expect(messageFixtureSets.map((set) => set.module)).toEqual([
      'openai-chat',
      'openai-responses',
      'anthropic-messages',
      'gemini',
      'bedrock-converse',
      'mcp-tool-results',
      'ai-sdk-v7',
      'ai-sdk-v6',
      'genai-semconv',
      'openinference',
      'openllmetry',
      'langfuse',
      'remote-references',
      'tool-strings',
      'inline-text',
    ]);
    const names = allMessageFixtures.map((fixture) => fixture.name);
    expect(new Set(names).size).toBe(names.length);
    for (const set of messageFixtureSets) expect(set.fixtures.length).toBeGreaterThan(0);
    expect(allMessageFixtures.flatMap((fixture) => fixture.files).length).toBeGreaterThan(40);
  });

  it.each(allMessageFixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    expect(fixtureProblems(fixture)).toEqual([]);
  });

  it.each(messageFixtureSets.map((set) => [set.module, set] as const))(
    '%s.json equals its module',
    (_module, set) => {
      const text = readFileSync(new URL(`${set.module}.json`, MESSAGES_DIR), 'utf8');
      expect(jsonCopyProblem(set, text)).toBeUndefined();
      expect(JSON.parse(text)).toMatchObject({ module: set.module });
    },
  );

  it('has a JSON copy for each module and no other', () => {
    const copies = readdirSync(MESSAGES_DIR).filter((file) => file.endsWith('.json'));
    expect(copies.sort()).toEqual(messageFixtureSets.map((set) => `${set.module}.json`).sort());
  });

  it('keeps text data: URLs of at most 64 KiB inline', () => {
    const inline = messageFixtureSets.find((set) => set.module === 'inline-text')!.fixtures;
    for (const fixture of inline) {
      expect(fixture.files).toEqual([]);
      for (const { pointer } of fixture.kept ?? []) {
        const at = resolvePointer(fixture.value, pointer);
        const text = JSON.stringify(at.found ? at.value : null).match(/data:[^"]+/)?.[0];
        const decoded = decodeString(text ?? '');
        expect(decoded?.declared).toMatch(/^text\//);
        expect(decoded!.bytes.length).toBeLessThanOrEqual(TEXT_INLINE_LIMIT);
      }
    }
  });

  it('lists only remote references as kept in remote-references', () => {
    const remote = messageFixtureSets.find((set) => set.module === 'remote-references')!.fixtures;
    const reference = /^(https:\/\/|gs:\/\/|s3:\/\/|file[-_][A-Za-z0-9]+$|@@@langfuseMedia:.*@@@$|data:)/;
    for (const fixture of remote) {
      expect(fixture.files).toEqual([]);
      expect(fixture.kept?.length).toBeGreaterThan(0);
      for (const { pointer } of fixture.kept ?? []) {
        const at = resolvePointer(fixture.value, pointer);
        const strings = JSON.stringify(at.found ? at.value : null).match(/"[^"]*"/g) ?? [];
        expect(strings.some((s) => reference.test(JSON.parse(s) as string))).toBe(true);
      }
    }
  });

  it('name files from a file name, name, title or resource URI', () => {
    const names = allMessageFixtures.flatMap((fixture) => fixture.files.flatMap((file) => file.name ?? []));
    expect(new Set(names)).toEqual(
      new Set(['report.pdf', 'q3-report.pdf', 'Q3 report', 'q3-report', 'cat.png']),
    );
  });
});

describe('fixture checks reject bad fixtures', () => {
  const base = allMessageFixtures.find((fixture) => fixture.name.startsWith('openai-chat: user message'))!;
  const edit = (change: (copy: MessageFixture) => void): MessageFixture => {
    const copy = structuredClone(base);
    change(copy);
    return copy;
  };

  it('a name the part does not give, or a missing one', () => {
    expect(
      fixtureProblems(
        edit((copy) => {
          copy.files[0]!.name = 'cat.png';
          delete copy.files[2]!.name;
        }),
      ),
    ).toEqual([
      'file /messages/1/content/1: name "cat.png" is not the part\'s undefined',
      'file /messages/1/content/3: name undefined is not the part\'s "report.pdf"',
    ]);
  });

  it('a wrong digest or size', () => {
    const problems = fixtureProblems(
      edit((copy) => {
        copy.files[0]!.sha256 = '0'.repeat(64);
        copy.files[1]!.size += 1;
      }),
    );
    expect(problems).toEqual([
      'file /messages/1/content/1: sha256 does not match the bytes',
      `file /messages/1/content/2: size ${base.files[1]!.size + 1} is not ${base.files[1]!.size}`,
    ]);
  });

  it('a pointer to nothing, or to a part without bytes', () => {
    const problems = fixtureProblems(
      edit((copy) => {
        copy.files[0]!.pointer = '/messages/9/content/1';
        copy.files[1]!.pointer = '/messages/1/content/0';
      }),
    );
    expect(problems).toContain('file /messages/9/content/1: the pointer does not resolve');
    expect(problems).toContain('file /messages/1/content/0: the part holds no bytes in a known field');
  });

  it('an undeclared file, a wrong media type and files out of order', () => {
    expect(fixtureProblems(edit((copy) => copy.files.splice(1, 1)))).toEqual([
      'media at /messages/1/content/2/input_audio/data is neither a declared file nor kept',
    ]);
    expect(fixtureProblems(edit((copy) => (copy.files[0]!.mediaType = 'image/jpeg')))).toEqual([
      'file /messages/1/content/1: media type image/jpeg does not fit the bytes (image/png)',
    ]);
    expect(fixtureProblems(edit((copy) => copy.files.reverse()))).toEqual(['files are not in reading order']);
  });

  it('an attribute the scanner does not read, and a kept place that is a file', () => {
    expect(fixtureProblems(edit((copy) => (copy.attribute = 'http.request.body')))).toEqual([
      'http.request.body is not a scanned attribute',
    ]);
    expect(
      fixtureProblems(edit((copy) => (copy.kept = [{ pointer: '/messages/1/content/1', reason: 'test' }]))),
    ).toEqual(['kept /messages/1/content/1: also a file']);
  });

  it('a numbered-byte object declared as a file', () => {
    const v6 = aiSdkV6Fixtures[0]!;
    const copy = structuredClone(v6);
    copy.kept = [];
    copy.files.push({
      pointer: '/messages/0/content/3',
      sha256: DOT_PNG.sha256,
      size: DOT_PNG.size,
      mediaType: 'image/png',
    });
    expect(fixtureProblems(copy)).toEqual([
      'file /messages/0/content/3: /image is an object of numbered bytes, which is not a file',
    ]);
  });

  it('a JSON copy that drifted from its module', () => {
    const set = messageFixtureSets[0]!;
    const drifted = structuredClone(set.fixtures) as MessageFixture[];
    drifted[0]!.files[0]!.size = 1;
    expect(jsonCopyProblem(set, JSON.stringify({ fixtures: drifted }))).toBe(
      'openai-chat.json differs from openai-chat.ts: run node fixtures/messages/export-json.mjs',
    );
    expect(jsonCopyProblem(set, '{"fixtures": [')).toBe('openai-chat.json is not JSON');
  });

  it('malformed pointers and text fixtures without a string', () => {
    expect(() => resolvePointer({}, 'messages/0')).toThrow(TypeError);
    expect(resolvePointer({ 'a/b': { '~': 1 } }, '/a~1b/~0')).toEqual({ found: true, value: 1 });
    expect(() => attributeText({ ...base, text: true })).toThrow(
      `fixture "${base.name}": text is true but value is not a string`,
    );
    expect(attributeText(base)).toBe(JSON.stringify(base.value));
  });
});

// ---------------------------------------------------------------------------------------------

describe('fixture media', () => {
  const generated = generateMedia();

  it('are what fixtures/media/generate.mjs makes, with the quickstart cat a copy', () => {
    expect(Object.keys(generated).sort()).toEqual([
      'examples/quickstart/cat.png',
      'fixtures/media/cat.png',
      'fixtures/media/dot.png',
      'fixtures/media/report.pdf',
      'fixtures/media/tone-24k.pcm',
      'fixtures/media/tone.wav',
    ]);
    for (const [path, bytes] of Object.entries(generated)) {
      expect(Buffer.compare(readFileSync(new URL(path, ROOT)), Buffer.from(bytes)), path).toBe(0);
    }
    expect(
      readFileSync(new URL('examples/quickstart/cat.png', ROOT)).equals(Buffer.from(CAT_PNG.bytes)),
    ).toBe(true);
  });

  it('are valid PNGs (chunk CRCs, IHDR, zlib stream of filtered rows)', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    for (const [media, side] of [
      [DOT_PNG, 8],
      [CAT_PNG, 32],
    ] as const) {
      const png = Buffer.from(media.bytes);
      let offset = 8;
      const chunks: { type: string; data: Buffer }[] = [];
      while (offset < png.length) {
        const length = png.readUInt32BE(offset);
        const body = png.subarray(offset + 4, offset + 8 + length);
        expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(body));
        chunks.push({ type: body.toString('latin1', 0, 4), data: body.subarray(4) });
        offset += 12 + length;
      }
      expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
      const ihdr = chunks[0]!.data;
      expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([side, side, 8, 2]);
      const raw = inflateSync(chunks[1]!.data);
      expect(raw.length).toBe(side * (1 + side * 3));
      for (let row = 0; row < side; row++) expect(raw[row * (1 + side * 3)]).toBe(0);
    }
  });

  it('are a valid WAV, raw pcm16 and PDF', () => {
    const wav = Buffer.from(MEDIA_FILES.find((m) => m.fileName === 'tone.wav')!.bytes);
    expect([
      wav.toString('latin1', 0, 4),
      wav.toString('latin1', 8, 16),
      wav.toString('latin1', 36, 40),
    ]).toEqual(['RIFF', 'WAVEfmt ', 'data']);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 8000, 16,
    ]);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);

    const pcm = MEDIA_FILES.find((m) => m.fileName === 'tone-24k.pcm')!;
    expect(pcm.size).toBe(24_000 * 2 * 0.01); // 10 ms of 16-bit mono at 24 kHz

    const pdf = Buffer.from(MEDIA_FILES.find((m) => m.fileName === 'report.pdf')!.bytes).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(pdf.match(/startxref\n(\d+)\n/)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    expect(offsets.map((offset) => pdf.slice(offset, offset + 7))).toEqual(
      offsets.map((_, i) => `${i + 1} 0 obj`),
    );
  });
});

// ---------------------------------------------------------------------------------------------

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const answer = {
  content: [{ type: 'text' as const, text: 'A dot and a cat.' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
};

/** Runs `call` with a private tracer provider and returns the spans it recorded. */
async function recordSpans(call: (tracer: ReturnType<TracerProvider['getTracer']>) => Promise<unknown>) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  await call(provider.getTracer('message-fixtures'));
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

/** The one recorded value of `attribute` across `spans` (every span that has it agrees). */
function recorded(spans: readonly ReadableSpan[], attribute: string): string {
  const values = new Set(
    spans.flatMap((span) => (attribute in span.attributes ? [span.attributes[attribute]] : [])),
  );
  expect(values.size, attribute).toBe(1);
  return String([...values][0]);
}

function fixtureFor(fixtures: readonly MessageFixture[], attribute: string): MessageFixture {
  const found = fixtures.find((fixture) => fixture.attribute === attribute);
  if (found === undefined) throw new Error(`no fixture records ${attribute}`);
  return found;
}

describe('AI SDK fixtures are what the AI SDK records', () => {
  it('v7 with LegacyOpenTelemetry: ai.prompt and ai.prompt.messages', async () => {
    const spans = await recordSpans((tracer) =>
      generateText({
        model: new MockLanguageModelV4({ doGenerate: answer }),
        messages: aiSdkV7Messages,
        telemetry: {
          isEnabled: true,
          integrations: [new LegacyOpenTelemetry({ tracer }) as unknown as Telemetry],
        },
      }),
    );
    for (const attribute of ['ai.prompt', 'ai.prompt.messages']) {
      expect(recorded(spans, attribute)).toBe(attributeText(fixtureFor(aiSdkV7Fixtures, attribute)));
    }
  });

  it('v7 with OpenTelemetry: gen_ai.input.messages', async () => {
    const spans = await recordSpans((tracer) =>
      generateText({
        model: new MockLanguageModelV4({ doGenerate: answer }),
        messages: aiSdkV7Messages,
        telemetry: { isEnabled: true, integrations: [new OpenTelemetry({ tracer }) as unknown as Telemetry] },
      }),
    );
    const attribute = 'gen_ai.input.messages';
    expect(recorded(spans, attribute)).toBe(attributeText(fixtureFor(aiSdkV7Fixtures, attribute)));
  });

  it('v6 with experimental_telemetry: ai.prompt, ai.prompt.messages and a metadata data: URL', async () => {
    const spans = await recordSpans((tracer) =>
      generateTextV6({
        model: new MockLanguageModelV3({ doGenerate: answer }),
        messages: aiSdkV6Messages,
        experimental_telemetry: { isEnabled: true, tracer, metadata: aiSdkV6Metadata },
      }),
    );
    for (const attribute of ['ai.prompt', 'ai.prompt.messages', 'ai.telemetry.metadata.screenshot']) {
      expect(recorded(spans, attribute)).toBe(attributeText(fixtureFor(aiSdkV6Fixtures, attribute)));
    }
  });
});
