/**
 * A child process for the upload memory tests: records one large file through the SDK (from its
 * TypeScript sources, which Node runs by stripping types) against a server the parent started,
 * and prints one JSON line: the SDK's peak RSS growth while recording, exporting and uploading.
 *
 * argv[2] is JSON: `{ mode: 'path', origin, key, path }` (a `path` attachment in a span's input)
 * or `{ mode: 'base64', origin, key, bytes }` (a base64 image of `bytes` decoded bytes inside a
 * span's `gen_ai.input.messages`, an attribute too large to parse). Run with `--expose-gc`.
 * @module
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSvc } from '../../../client/svc-client.js';
import { Attachment } from '../../attachment/attachment.js';

interface Input {
  mode: 'path' | 'base64';
  origin: string;
  key: string;
  path?: string;
  bytes?: number;
}

const input = JSON.parse(process.argv[2]!) as Input;
const gc = (globalThis as { gc?: () => void }).gc!;

/** The PNG signature and one more byte: 9 bytes, 12 base64 characters. */
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);

/** A base64 image of `bytes` bytes (the PNG head, then zeros) and its SHA-256, without holding the bytes. */
function base64Image(bytes: number): { text: string; sha256: string } {
  const zeros = (bytes - PNG_HEAD.length) / 3;
  const hash = createHash('sha256').update(PNG_HEAD);
  const block = Buffer.alloc(3 * 1024 * 1024);
  for (let left = zeros * 3; left > 0; left -= block.length)
    hash.update(block.subarray(0, Math.min(left, block.length)));
  return { text: PNG_HEAD.toString('base64') + 'AAAA'.repeat(zeros), sha256: hash.digest('hex') };
}

const svc = createSvc({
  apiKey: input.key,
  baseUrl: input.origin,
  serviceName: 'upload-memory',
  captureContent: true,
  timeoutMillis: 60_000,
});

let value: string | undefined;
let expected: { sha256: string; size: number } | undefined;
if (input.mode === 'base64') {
  const image = base64Image(input.bytes!);
  value = `[{"role":"user","parts":[{"type":"text","content":"What is this?"},{"type":"blob","modality":"image","mime_type":"image/png","content":"${image.text}"}]}]`;
  value.charCodeAt(value.length >> 1); // flattened now, not while measuring
  expected = { sha256: image.sha256, size: input.bytes! };
}
gc();
await sleep(50);
gc();
const baseline = process.memoryUsage.rss();
let peak = baseline;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
const sampler = setInterval(sample, 5);

const traceId = svc.withSpan('large file', (span) => {
  if (input.mode === 'path') {
    const file = new Attachment({
      path: input.path!,
      contentType: 'application/octet-stream',
      name: 'large.bin',
    });
    expected = { sha256: file.sha256!, size: file.size! };
    span.setInput({ file });
  } else {
    span.span.setAttribute('gen_ai.input.messages', value!);
    value = undefined;
  }
  sample();
  return span.traceId;
});
const report = await svc.flush();
sample();
clearInterval(sampler);
await svc.shutdown();
process.stdout.write(`${JSON.stringify({ baseline, peak, report, traceId, ...expected })}\n`);
