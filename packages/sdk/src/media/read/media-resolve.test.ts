/**
 * `media.resolve` behaviours that need a controllable service: each file read once, the text
 * prefix kept (`prefix_only`), files inside JSON-encoded strings, one failure among successes,
 * cancellation. A node:http stand-in serves the contract's two routes from a map of files.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAT_PNG, DOT_PNG, REPORT_PDF } from '../../../../../fixtures/messages/media.js';
import { findDigestHolders, scanAttribute } from '../scan/index.js';
import { sha256Hex } from '../scan/test-support.js';
import { createMediaReader } from './media-reader.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** The stored files by digest, and the answers the stub gives instead for some digests. */
const stored = new Map<string, { bytes: Uint8Array; contentType: string }>();
const linkAnswers = new Map<string, { status: number; code: string }>();
/** Digests whose download serves other bytes. */
const tampered = new Set<string>();
const requests: string[] = [];
/** Link answers held until released (to cancel a call in flight). */
let holdLinks = false;
const held: (() => void)[] = [];

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    requests.push(url.pathname);
    const link = /^\/api\/v1\/traces\/[^/]+\/blobs\/([0-9a-f]{64})$/.exec(url.pathname);
    const download = /^\/files\/([0-9a-f]{64})$/.exec(url.pathname);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (link !== null) {
      const sha256 = link[1]!;
      const answer = () => {
        const special = linkAnswers.get(sha256);
        const file = stored.get(sha256);
        if (special !== undefined)
          return json(special.status, { error: { code: special.code, message: 'x' } });
        if (file === undefined) return json(404, { error: { code: 'not_found', message: 'x' } });
        json(200, {
          url: `${origin}/files/${sha256}?signature=s`,
          name: null,
          sha256,
          size: file.bytes.length,
          contentType: file.contentType,
          expiresAt: new Date().toISOString(),
        });
      };
      if (holdLinks) held.push(answer);
      else answer();
      return;
    }
    if (download !== null && stored.has(download[1]!)) {
      const bytes = Buffer.from(stored.get(download[1]!)!.bytes);
      if (tampered.has(download[1]!)) bytes[0] = bytes[0]! ^ 1;
      res.writeHead(200, { 'content-length': String(bytes.length) });
      res.end(bytes);
      return;
    }
    json(404, { error: { code: 'not_found', message: 'x' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  stored.clear();
  linkAnswers.clear();
  tampered.clear();
  requests.length = 0;
  holdLinks = false;
  held.length = 0;
});

function reader() {
  return createMediaReader({ apiKey: 'svc_read_stub', baseUrl: origin, timeoutMillis: 60_000 });
}

/** Records `value` in `attribute` with every file uploaded: the digest-form text and svc.blobs. */
function record(attribute: string, value: unknown) {
  const blobs: string[] = [];
  const text = scanAttribute(attribute, typeof value === 'string' ? value : JSON.stringify(value), (file) => {
    blobs.push(
      JSON.stringify({ key: file.key, sha256: file.sha256, size: file.size, content_type: file.contentType }),
    );
    return 'upload';
  }).value;
  return { text, blobs };
}

function store(bytes: Uint8Array, contentType: string): string {
  const sha256 = sha256Hex(bytes);
  stored.set(sha256, { bytes, contentType });
  return sha256;
}

/** Freezes `value` and everything in it, so any mutation throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const imagePart = (base64: string) => ({
  type: 'image_url',
  image_url: { url: `data:image/png;base64,${base64}` },
});

describe('media.resolve', () => {
  it('reads a file used several times once, also when it is inside a JSON-encoded string', async () => {
    const toolResult = JSON.stringify({
      content: [{ type: 'image', data: CAT_PNG.base64, mimeType: 'image/png' }],
    });
    const request = {
      messages: [
        {
          role: 'user',
          content: [imagePart(CAT_PNG.base64), imagePart(DOT_PNG.base64), imagePart(CAT_PNG.base64)],
        },
        { role: 'tool', tool_call_id: 'call_1', content: toolResult },
      ],
    };
    const { text, blobs } = record('input.value', request);
    expect(text).not.toContain(CAT_PNG.base64);
    store(CAT_PNG.bytes, 'image/png');
    store(DOT_PNG.bytes, 'image/png');
    const recorded = deepFreeze(JSON.parse(text));

    const { value, failures } = await reader().resolve(recorded, { traceId: TRACE_ID, blobs });
    expect(failures).toEqual([]);
    expect(value).toEqual(request);
    const linkRequests = requests.filter((r) => r.startsWith('/api/'));
    expect(linkRequests.filter((r) => r.endsWith(CAT_PNG.sha256))).toHaveLength(1);
    expect(linkRequests.filter((r) => r.endsWith(DOT_PNG.sha256))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('/files/'))).toHaveLength(2);
  });

  it('reports a failure inside a JSON-encoded string with the string pointer and the inner pointer', async () => {
    const toolResult = JSON.stringify({
      content: [
        { type: 'image', data: DOT_PNG.base64, mimeType: 'image/png' },
        { type: 'image', data: CAT_PNG.base64, mimeType: 'image/png' },
      ],
    });
    const request = { messages: [{ role: 'tool', tool_call_id: 'c', content: toolResult }] };
    const { text, blobs } = record('input.value', request);
    store(CAT_PNG.bytes, 'image/png');
    linkAnswers.set(DOT_PNG.sha256, { status: 404, code: 'missing' });

    const { value, failures } = await reader().resolve(text, { traceId: TRACE_ID, blobs, as: 'bytes' });
    expect(failures).toEqual([
      {
        pointer: '/messages/0/content',
        innerPointer: '/content/0',
        sha256: DOT_PNG.sha256,
        reason: 'missing',
      },
    ]);
    // Inside the string the restored file is inline even with as: 'bytes': the string stays JSON text.
    const content = (value as { messages: { content: unknown }[] }).messages[0]!.content;
    expect(typeof content).toBe('string');
    const inner = JSON.parse(content as string);
    expect(inner.content[1]).toEqual({ type: 'image', data: CAT_PNG.base64, mimeType: 'image/png' });
    expect(findDigestHolders(inner.content[0])).toHaveLength(1);
  });

  it('one failing file does not stop the others: digest_mismatch, unavailable, not_found, forbidden', async () => {
    const messages = [
      {
        role: 'user',
        content: [imagePart(CAT_PNG.base64), imagePart(DOT_PNG.base64), { type: 'text', text: 'and' }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'file',
            file: { file_data: `data:application/pdf;base64,${REPORT_PDF.base64}`, filename: 'r.pdf' },
          },
        ],
      },
    ];
    const { text, blobs } = record('gen_ai.input.messages', messages);
    store(CAT_PNG.bytes, 'image/png');
    store(DOT_PNG.bytes, 'image/png');
    tampered.add(DOT_PNG.sha256);
    store(REPORT_PDF.bytes, 'application/pdf');
    const recorded = JSON.parse(text);

    const first = await reader().resolve(recorded, { traceId: TRACE_ID, blobs });
    expect(first.failures).toEqual([
      { pointer: '/0/content/1', sha256: DOT_PNG.sha256, reason: 'digest_mismatch' },
    ]);
    expect((first.value as typeof messages)[0]!.content[0]).toEqual(imagePart(CAT_PNG.base64));
    expect((first.value as typeof messages)[1]).toEqual(messages[1]);
    expect((first.value as typeof messages)[0]!.content[1]).toBe(recorded[0].content[1]);

    linkAnswers.set(CAT_PNG.sha256, { status: 503, code: 'unavailable' });
    linkAnswers.set(REPORT_PDF.sha256, { status: 403, code: 'forbidden' });
    stored.delete(DOT_PNG.sha256);
    const second = await reader().resolve(recorded, { traceId: TRACE_ID, blobs });
    expect(second.failures.map((f) => [f.pointer, f.reason])).toEqual([
      ['/0/content/0', 'unavailable'],
      ['/0/content/1', 'not_found'],
      ['/1/content/0', 'forbidden'],
    ]);
    expect(second.value).toBe(recorded);
  });

  it("as: 'bytes' on JSON text returns the parsed value, since JSON text cannot hold bytes", async () => {
    const whole = record('input.value', `data:image/png;base64,${DOT_PNG.base64}`);
    const parts = record('gen_ai.input.messages', [{ role: 'user', content: [imagePart(DOT_PNG.base64)] }]);
    store(DOT_PNG.bytes, 'image/png');
    const one = await reader().resolve(whole.text, { traceId: TRACE_ID, blobs: whole.blobs, as: 'bytes' });
    expect(one.value).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(one.value as Uint8Array).equals(Buffer.from(DOT_PNG.bytes))).toBe(true);
    const many = await reader().resolve(parts.text, { traceId: TRACE_ID, blobs: parts.blobs, as: 'bytes' });
    expect((many.value as { content: unknown[] }[])[0]!.content[0]).toBeInstanceOf(Uint8Array);
    // Nothing to restore: still the parsed value.
    const none = await reader().resolve(parts.text, { traceId: TRACE_ID, blobs: [], as: 'bytes' });
    expect(none.value).toEqual(JSON.parse(parts.text));
    expect(none.failures.map((f) => f.reason)).toEqual(['not_listed']);
  });

  it('prefix_only: a text file whose full bytes are not stored keeps its inline prefix', async () => {
    const big = 'A line of a long transcript. '.repeat(4_000);
    const dataUrl = `data:text/plain;base64,${Buffer.from(big).toString('base64')}`;
    const { text, blobs } = record('input.value', dataUrl);
    const [holder] = findDigestHolders(JSON.parse(text));
    expect(holder?.prefix).toBeDefined();
    expect(big.startsWith(holder!.prefix!)).toBe(true);
    const sha256 = sha256Hex(Buffer.from(big));

    linkAnswers.set(sha256, { status: 404, code: 'missing' });
    const missing = await reader().resolve(text, { traceId: TRACE_ID, blobs });
    expect(missing.failures).toEqual([{ pointer: '', sha256, reason: 'prefix_only' }]);
    expect(missing.value).toBe(text);

    const notListed = await reader().resolve(text, { traceId: TRACE_ID, blobs: [] });
    expect(notListed.failures).toEqual([{ pointer: '', sha256, reason: 'prefix_only' }]);

    // A failure that says nothing of the bytes being gone keeps its own reason.
    linkAnswers.set(sha256, { status: 503, code: 'unavailable' });
    const down = await reader().resolve(text, { traceId: TRACE_ID, blobs });
    expect(down.failures).toEqual([{ pointer: '', sha256, reason: 'unavailable' }]);

    linkAnswers.clear();
    store(Buffer.from(big), 'text/plain');
    const whole = await reader().resolve(text, { traceId: TRACE_ID, blobs });
    expect(whole.failures).toEqual([]);
    expect(JSON.parse(whole.value as string).content).toBe(big);
  });

  it('rejects with the signal reason when cancelled while reading', async () => {
    const { text, blobs } = record('gen_ai.input.messages', [
      { role: 'user', content: [imagePart(DOT_PNG.base64)] },
    ]);
    store(DOT_PNG.bytes, 'image/png');
    holdLinks = true;
    const controller = new AbortController();
    const pending = reader().resolve(text, { traceId: TRACE_ID, blobs, signal: controller.signal });
    while (requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('stop reading'));
    await expect(pending).rejects.toThrow('stop reading');
    for (const release of held) release();
  });
});
