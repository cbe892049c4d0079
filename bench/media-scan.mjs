/**
 * The media scanner benchmark, run by `pnpm bench` through `run.mjs`. Two measurements, each
 * against its floor in the same run and process:
 *
 * 1. A span attribute (`gen_ai.input.messages`) whose message holds one 16 MiB base64 PNG-typed
 *    blob part: `scanAttribute` (find the part, decode the base64 in 1 MiB slices, SHA-256 them,
 *    write the digest-form part into the text) against `Buffer.from(b64, 'base64')` + SHA-256 of
 *    the same string. Target: ratio ≤ 1.5.
 * 2. A 64 KiB text-only chat conversation (no files): `scanAttribute` against `JSON.parse` of the
 *    same text. Target: ratio ≤ 1.0.
 *
 * The scanner is imported from the SDK's TypeScript sources (it is internal; the build does not
 * export it). Rounds alternate floor and scanner; medians are reported. It only reports: missing
 * a target never fails the run; a wrong digest does (exit 1).
 *
 * Environment: BENCH_MEDIA_ROUNDS (default 9), BENCH_MEDIA_TEXT_ITERATIONS (scans per timed text
 * round, default 200), BENCH_SEED (default 42).
 * @module
 */
import '../scripts/ts-source-hooks.mjs';
import { createHash } from 'node:crypto';
import { envInt, fmt, pad, padLeft, prng } from './bench-support.mjs';

const { scanAttribute } = await import('../packages/sdk/src/media/scan/index.ts');

const ROUNDS = envInt('BENCH_MEDIA_ROUNDS', 9, 1);
const TEXT_ITERATIONS = envInt('BENCH_MEDIA_TEXT_ITERATIONS', 200, 1);
const SEED = envInt('BENCH_SEED', 42, 0);
const IMAGE_TARGET = 1.5;
const TEXT_TARGET = 1.0;

/** `bytes` seeded pseudo-random bytes. */
function randomBytes(bytes, seed) {
  const next = prng(seed);
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i += 4) out.writeUInt32LE(Math.floor(next() * 2 ** 32), Math.min(i, bytes - 4));
  return out;
}

/** A chat conversation of plain text whose JSON is about `targetBytes` long. */
function textConversation(targetBytes, seed) {
  const next = prng(seed);
  const words = ['the', 'model', 'answer', 'weather', 'tool', 'invoice', 'total', 'Paris', 'é', 'data', 'ok'];
  const sentence = () => Array.from({ length: 12 }, () => words[Math.floor(next() * words.length)]).join(' ');
  const messages = [];
  let text = '';
  while (text.length < targetBytes) {
    const role = messages.length % 2 === 0 ? 'user' : 'assistant';
    messages.push({
      role,
      parts: [{ type: 'text', content: Array.from({ length: 8 }, sentence).join('. ') }],
    });
    text = JSON.stringify(messages);
  }
  return text;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const timeMs = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const upload = () => 'upload';

function imageBench() {
  const bytes = randomBytes(12 * 1024 * 1024, SEED);
  const b64 = bytes.toString('base64'); // 16 MiB of base64
  const text = JSON.stringify([
    {
      role: 'user',
      parts: [
        { type: 'text', content: 'What is in this picture?' },
        { type: 'blob', modality: 'image', mime_type: 'image/png', content: b64 },
      ],
    },
  ]);
  const expected = createHash('sha256').update(bytes).digest('hex');
  let floorDigest = '';
  let scanned = '';
  const floor = [];
  const scan = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const f = timeMs(() => {
      floorDigest = createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');
    });
    const s = timeMs(() => {
      scanned = scanAttribute('gen_ai.input.messages', text, upload).value;
    });
    if (round > 0) {
      floor.push(f);
      scan.push(s);
    }
  }
  if (floorDigest !== expected || !scanned.includes(`"sha256":"${expected}"`) || scanned.includes(b64)) {
    throw new Error('the scanner did not put the image in digest form with the right SHA-256');
  }
  return { b64Length: b64.length, floor: median(floor), scan: median(scan), outLength: scanned.length };
}

function textBench() {
  const text = textConversation(64 * 1024, SEED + 1);
  let parsed;
  let result;
  const floor = [];
  const scan = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const f = timeMs(() => {
      for (let i = 0; i < TEXT_ITERATIONS; i++) parsed = JSON.parse(text);
    });
    const s = timeMs(() => {
      for (let i = 0; i < TEXT_ITERATIONS; i++) result = scanAttribute('gen_ai.input.messages', text, upload);
    });
    if (round > 0) {
      floor.push(f / TEXT_ITERATIONS);
      scan.push(s / TEXT_ITERATIONS);
    }
  }
  if (!Array.isArray(parsed) || result.changed || result.value !== text) {
    throw new Error('the scanner changed a text-only message');
  }
  return { length: text.length, floor: median(floor), scan: median(scan) };
}

function verdict(ratio, target) {
  return ratio <= target ? `meets the target (≤ ${target})` : `MISSES the target (≤ ${target})`;
}

try {
  console.log('');
  console.log('Media scanner benchmark (scanAttribute from the SDK sources, in-process)');
  console.log(
    `  ${ROUNDS} timed rounds after one warm-up, floor and scanner alternating; medians; Node ${process.version}`,
  );
  const image = imageBench();
  const imageRatio = image.scan / image.floor;
  console.log('');
  console.log(`  one ${fmt(image.b64Length / 2 ** 20, 1)} MiB base64 image in gen_ai.input.messages`);
  console.log(
    `    ${pad('floor: Buffer.from(b64, "base64") + SHA-256', 48)}${padLeft(fmt(image.floor, 2), 9)} ms`,
  );
  console.log(
    `    ${pad('scanAttribute (find, decode, hash, digest form)', 48)}${padLeft(fmt(image.scan, 2), 9)} ms`,
  );
  console.log(`    ratio scanner/floor ${fmt(imageRatio, 2)}: ${verdict(imageRatio, IMAGE_TARGET)}`);
  const text = textBench();
  const textRatio = text.scan / text.floor;
  console.log('');
  console.log(
    `  a ${fmt(text.length / 1024, 1)} KiB text-only conversation (${TEXT_ITERATIONS} scans per round)`,
  );
  console.log(`    ${pad('floor: JSON.parse', 48)}${padLeft(fmt(text.floor * 1000, 1), 9)} µs`);
  console.log(
    `    ${pad('scanAttribute (nothing to replace)', 48)}${padLeft(fmt(text.scan * 1000, 1), 9)} µs`,
  );
  console.log(`    ratio scanner/floor ${fmt(textRatio, 2)}: ${verdict(textRatio, TEXT_TARGET)}`);
} catch (error) {
  console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}
