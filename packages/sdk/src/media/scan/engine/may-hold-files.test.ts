import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARSE_LIMIT_UNITS, releaseTape, tokenizeJson } from '../json/tokenize-json.js';
import { startsWithDataScheme } from '../media/data-url.js';
import { attributeMayHoldFiles, scanAttribute } from '../scan-attribute.js';
import { documents, documentsWith } from '../test-generators.js';
import { PNG_BASE64, PNG_SHA256, recordingDecide } from '../test-support.js';
import { JsonTextScan } from './json-text-scan.js';
import { PART_WORDS, textMayHoldFiles } from './may-hold-files.js';

/**
 * How many files the full walk (tokenizer and `JsonTextScan`, no pre-check, not even on strings
 * holding JSON) finds in `text`.
 */
function filesFound(text: string): number {
  const tokens = tokenizeJson(text);
  if (!tokens.ok || tokens.bigInteger) return 0;
  let found = 0;
  const scan = new JsonTextScan(tokens.tape, {
    keyBase: 'gen_ai.input.messages#',
    ask: () => {
      found++;
      return 'upload';
    },
    largeMode: text.length > PARSE_LIMIT_UNITS,
    depthBase: 0,
    preCheck: false,
  });
  scan.walk();
  releaseTape(tokens.tape);
  return found;
}

/** A seeded generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** How {@link writeEscaped} escapes: which code units, and with what chance each. */
interface Escaping {
  rate: number;
  lettersOnly: boolean;
  next: () => number;
}

/** The JSON string literal of `value`, code units written as `\uXXXX` as `escaping` says. */
function escapeRandomly(value: string, escaping: Escaping): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const candidate = !escaping.lettersOnly || /[A-Za-z]/.test(value[i]!);
    if ((candidate && escaping.next() < escaping.rate) || unit < 32) {
      out += `\\u${unit.toString(16).padStart(4, '0')}`;
    } else if (unit === 34) out += '\\"';
    else if (unit === 92) out += '\\\\';
    else out += value[i];
  }
  return `${out}"`;
}

/**
 * `value` as JSON whose strings and keys have random `\uXXXX` escapes; strings holding JSON are
 * written the same way before being escaped, so escapes sit at every depth (`\\u0069` and so on).
 */
function writeEscaped(value: unknown, escaping: Escaping): string {
  if (typeof value === 'string') {
    let inner: unknown;
    if (/^\s*[[{]/.test(value)) {
      try {
        inner = JSON.parse(value);
      } catch {
        inner = undefined;
      }
    }
    const text = typeof inner === 'object' && inner !== null ? writeEscaped(inner, escaping) : value;
    return escapeRandomly(text, escaping);
  }
  if (Array.isArray(value)) return `[${value.map((item) => writeEscaped(item, escaping)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([key, item]) => `${escapeRandomly(key, escaping)}:${writeEscaped(item, escaping)}`,
    );
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Every `data:` of `text` with its letters in random case. */
function dataSchemeInRandomCase(text: string, next: () => number): string {
  return text.replace(/data:/gi, (scheme) =>
    Array.from(scheme, (c) => (next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(''),
  );
}

/**
 * Generated documents with files, then re-written in ways the scanner still reads; half of them
 * hold files only as whole data: URL strings (no part words).
 */
const variants = fc
  .tuple(
    fc.oneof(documents, documentsWith(['whole data URL'])),
    fc.integer(),
    fc.constantFrom(0, 0.02, 0.05, 0.2, 1),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([piece, seed, rate, lettersOnly, recase]) => {
    const next = random(seed);
    let text = piece.input;
    if (rate > 0) text = writeEscaped(JSON.parse(text), { rate, lettersOnly, next });
    if (recase) text = dataSchemeInRandomCase(text, next);
    return { text, escaped: rate > 0 };
  });

describe('textMayHoldFiles', () => {
  it('says "no file" for chat text, even when it names the recognized words', () => {
    const text = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Is this image a document or audio? data: none' }] },
      { role: 'assistant', parts: [{ type: 'text', content: 'document 2: \u00e9t\u00e9 image_url file' }] },
      { role: 'assistant', content: 'no data: here', images: ['document.pdf'] },
    ]);
    expect(textMayHoldFiles(text)).toBe(false);
    // Escapes of non-ASCII characters (Python's ensure_ascii) do not matter
    expect(textMayHoldFiles('[{"type":"text","content":"\\u00e9t\\u00e9 \\u4e2d\\ud83d\\ude00"}]')).toBe(
      false,
    );
    expect(textMayHoldFiles('')).toBe(false);
  });

  it('says "maybe" for every type value and untyped member name, at every depth of encoding', () => {
    for (const word of PART_WORDS) {
      const part = `{"${word}":1}`;
      expect(textMayHoldFiles(part)).toBe(true);
      expect(textMayHoldFiles(`{"type":"${word}"}`)).toBe(true);
      expect(textMayHoldFiles(JSON.stringify({ tool: part }))).toBe(true);
      expect(textMayHoldFiles(JSON.stringify([JSON.stringify([part])]))).toBe(true);
      // A longer word is not the word
      expect(textMayHoldFiles(`{"type":"${word}s","${word}x":1}`)).toBe(false);
    }
  });

  it('says "maybe" for a string starting with data: in any case, at any depth', () => {
    expect(textMayHoldFiles('["data:image/png;base64,AAAA"]')).toBe(true);
    expect(textMayHoldFiles('{"a":"DaTa:text/plain,hi"}')).toBe(true);
    expect(textMayHoldFiles(JSON.stringify({ a: JSON.stringify(['DATA:x/y,z']) }))).toBe(true);
    expect(textMayHoldFiles('{"a":"data image"}')).toBe(false);
  });

  it('says "maybe" for any escape that writes an ASCII character', () => {
    expect(textMayHoldFiles('[{"type":"bl\\u006fb"}]')).toBe(true);
    expect(textMayHoldFiles('["\\u0064ata:image/png;base64,AAAA"]')).toBe(true);
    // Escaped once more, inside a JSON string
    expect(textMayHoldFiles('["[\\"\\\\u0064ata:image/png;base64,AAAA\\"]"]')).toBe(true);
    expect(textMayHoldFiles('["\\u007f"]')).toBe(true);
    expect(textMayHoldFiles('["\\u0080"]')).toBe(false);
  });

  it('reads only the range it is given (the contents of one string literal)', () => {
    const text = '{"type":"blob","content":"[{\\"text\\":\\"hi\\"}]"}';
    const contentStart = text.indexOf('[');
    const contentEnd = text.lastIndexOf(']') + 1;
    expect(textMayHoldFiles(text)).toBe(true);
    expect(textMayHoldFiles(text, contentStart, contentEnd)).toBe(false);
    expect(textMayHoldFiles(text, 0, 5)).toBe(false);
  });

  it('knows words that no escape but \\u00XX writes', () => {
    expect(PART_WORDS.length).toBeGreaterThan(10);
    for (const word of PART_WORDS) expect(word).toMatch(/^[A-Za-z_-]+$/);
  });

  it('never says "no file" for a value in which the full walk finds one (property)', () => {
    let withFiles = 0;
    let escapedWithFiles = 0;
    fc.assert(
      fc.property(variants, ({ text, escaped }) => {
        if (filesFound(text) > 0) {
          withFiles++;
          if (escaped) escapedWithFiles++;
          expect(textMayHoldFiles(text)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    // Not vacuous: many generated documents hold files, escaped ones too
    expect(withFiles).toBeGreaterThan(50);
    expect(escapedWithFiles).toBeGreaterThan(20);
  });

  it('never says "no file" for a mutated value in which the full walk finds one (property)', () => {
    const mutated = fc
      .tuple(
        fc.oneof(documents, documentsWith(['whole data URL'])),
        fc.nat(),
        fc.nat(3),
        fc.string({ unit: 'binary-ascii', maxLength: 3 }),
      )
      .map(([piece, at, cut, insert]) => {
        const position = at % (piece.input.length + 1);
        return piece.input.slice(0, position) + insert + piece.input.slice(position + cut);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        if (filesFound(text) > 0) expect(textMayHoldFiles(text)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('scanAttribute with the pre-check', () => {
  it('still finds a part whose type is written with \\u escapes', () => {
    const text = `[{"role":"user","parts":[{"type":"\\u0062lob","mime_type":"image/png","content":"${PNG_BASE64}"}]}]`;
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', text, decide);
    expect(offered.map((file) => file.sha256)).toEqual([PNG_SHA256]);
    expect(result.changed).toBe(true);
    expect(result.value).toContain(`"sha256":"${PNG_SHA256}"`);
  });

  it('gives back the value itself, and asks nothing, for a value without files', () => {
    const text = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'an image of a cat' }] }]);
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', text, decide);
    expect(result).toEqual({ value: text, changed: false });
    expect(result.value).toBe(text);
    expect(offered).toEqual([]);
  });

  it('still applies the 1 MiB rule to a value without files', () => {
    const text = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'x'.repeat(1_100_000) }] },
    ]);
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', text, decide);
    expect(offered.map((file) => [file.key, file.contentType])).toEqual([
      ['gen_ai.input.messages#', 'application/json'],
    ]);
    expect(result.changed).toBe(true);
    expect(result.value.length).toBe(16 * 1024);
  });

  it('tells which values it may change (attributeMayHoldFiles)', () => {
    const plain = { 'input.mime_type': 'text/plain' };
    const chat = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    const image = `[{"type":"image","image":"${PNG_BASE64}"}]`;
    expect(attributeMayHoldFiles('gen_ai.input.messages', '')).toBe(false);
    expect(attributeMayHoldFiles('gen_ai.input.messages', chat)).toBe(false);
    expect(attributeMayHoldFiles('gen_ai.input.messages', image)).toBe(true);
    expect(attributeMayHoldFiles('input.value', `data:image/png;base64,${PNG_BASE64}`)).toBe(true);
    expect(attributeMayHoldFiles('input.value', 'DATA:text/plain,hi')).toBe(true);
    // Declared text/plain: never read for files, only the 1 MiB rule applies
    expect(attributeMayHoldFiles('input.value', image, plain)).toBe(false);
    expect(attributeMayHoldFiles('input.value', `data:image/png;base64,${PNG_BASE64}`, plain)).toBe(false);
    expect(attributeMayHoldFiles('input.value', 'x'.repeat(400_000), plain)).toBe(true);
    expect(attributeMayHoldFiles('input.value', 'x'.repeat(300_000), plain)).toBe(false);
  });

  it('says "no" only for values the full walk finds no file in, within 1 MiB (property)', () => {
    const names = fc.constantFrom('gen_ai.input.messages', 'input.value', 'gen_ai.prompt.0.content');
    const contexts = fc.constantFrom(undefined, { 'input.mime_type': 'text/plain' });
    const values = fc.oneof(
      variants.map((variant) => variant.text),
      documentsWith(['whole data URL']).map((piece) => JSON.parse(piece.input)[0] as unknown),
      fc.string({ unit: 'binary' }),
      fc.json(),
    );
    let skipped = 0;
    fc.assert(
      fc.property(names, values, contexts, (name, generated, context) => {
        const value = typeof generated === 'string' ? generated : JSON.stringify(generated);
        if (attributeMayHoldFiles(name, value, context)) return;
        skipped++;
        expect(value.length * 3).toBeLessThanOrEqual(1024 * 1024);
        if (name === 'input.value' && context !== undefined) return;
        expect(startsWithDataScheme(value, 0)).toBe(false);
        expect(filesFound(value)).toBe(0);
      }),
      { numRuns: 500 },
    );
    expect(skipped).toBeGreaterThan(50);
  });
});
