import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../start-server.js';
import {
  blobFiles,
  blobPath,
  call,
  errorOf,
  put,
  reservation,
  reserve,
  sha256Of,
  type UploadTicket,
  upload,
} from '../test-support/media-fixtures.js';
import { newTraceId } from '../test-support/otlp-fixtures.js';

let server: RunningServer;
let expiring: RunningServer;
beforeAll(async () => {
  [server, expiring] = await Promise.all([startServer(), startServer({ uploadLinkTtlMillis: 0 })]);
});
afterAll(async () => {
  await Promise.all([server.close(), expiring.close()]);
});

function complete(traceId: string, sha256: string, key = server.keys.tracing): Promise<Response> {
  return call(server, '/api/v1/otlp/blobs/complete', { method: 'POST', key, json: { traceId, sha256 } });
}

function postReservation(body: unknown, key = server.keys.tracing, s = server): Promise<Response> {
  return call(s, '/api/v1/otlp/blobs', { method: 'POST', key, json: body });
}

/** Asserts a refused upload kept nothing: no file, no temporary file, nothing held by the trace. */
async function expectNothingKept(traceId: string, sha256: string): Promise<void> {
  expect(existsSync(blobPath(server, sha256))).toBe(false);
  expect(blobFiles(server).filter((name) => name.includes(sha256))).toEqual([]);
  expect(await errorOf(await complete(traceId, sha256))).toMatchObject({ status: 409, code: 'not_uploaded' });
}

describe('the upload sequence: reserve, PUT, complete', () => {
  it('reserves, stores the PUT body on disk under its digest, and completes', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(4096);
    const sha256 = sha256Of(bytes);
    const before = Date.now();
    const res = await postReservation(reservation(traceId, bytes));
    expect(res.status).toBe(200);
    const ticket = (await res.json()) as UploadTicket;
    expect(ticket).toEqual({
      status: 'upload',
      url: expect.stringMatching(
        new RegExp(
          `^${server.origin}/api/v1/blobs/uploads/[0-9a-f-]{36}\\?expires=\\d+&signature=[\\w-]{43}$`,
        ),
      ),
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'content-length': '4096' },
      expiresAt: expect.any(String),
      ref: { key: 'gen_ai.input.messages#/0/parts/1', sha256, size: 4096, content_type: 'image/png' },
    });
    const expiresAt = Date.parse(ticket.expiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(15 * 60 * 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

    // Before the PUT, completion says the bytes are not there.
    expect(await errorOf(await complete(traceId, sha256))).toMatchObject({
      status: 409,
      code: 'not_uploaded',
    });

    const stored = await put(server, ticket, bytes);
    expect(stored.status).toBe(201);
    expect(await stored.json()).toEqual({ status: 'stored', ref: ticket.ref });
    expect(readFileSync(blobPath(server, sha256))).toEqual(bytes);

    const done = await complete(traceId, sha256);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ status: 'stored', ref: ticket.ref });
  });

  it('answers exists to a second reservation of the same bytes in the same trace, with the new key', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(100);
    await upload(server, traceId, bytes);
    const res = await postReservation(
      reservation(traceId, bytes, { key: 'gen_ai.output.messages#/0/parts/0' }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'exists',
      ref: {
        key: 'gen_ai.output.messages#/0/parts/0',
        sha256: sha256Of(bytes),
        size: 100,
        content_type: 'image/png',
      },
    });
  });

  it('stores the same bytes used by two traces once on disk; each trace uploads (and proves) them', async () => {
    const bytes = randomBytes(2048);
    const sha256 = sha256Of(bytes);
    const [first, second] = [newTraceId(), newTraceId()];
    await upload(server, first, bytes);
    const ticket = await reserve(server, second, bytes);
    // The other trace's copy is no proof: the second trace gets an upload link too.
    expect(ticket.status).toBe('upload');
    expect((await put(server, ticket, randomBytes(2048))).status).toBe(400);
    expect((await put(server, ticket, bytes)).status).toBe(201);
    expect((await complete(second, sha256)).status).toBe(200);
    expect(blobFiles(server).filter((name) => name.includes(sha256))).toEqual([sha256]);
    expect(readFileSync(blobPath(server, sha256))).toEqual(bytes);
  });

  it('stores an empty file', async () => {
    const traceId = newTraceId();
    const empty = new Uint8Array(0);
    await upload(server, traceId, empty);
    expect(readFileSync(blobPath(server, sha256Of(empty))).byteLength).toBe(0);
  });

  it('answers 412 already_stored to a second PUT of the bytes the trace holds', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(300);
    const ticket = await reserve(server, traceId, bytes);
    expect((await put(server, ticket, bytes)).status).toBe(201);
    const again = await put(server, ticket, bytes);
    expect(await errorOf(again)).toMatchObject({ status: 412, code: 'already_stored' });
  });

  it('accepts a PUT that also carries an Authorization header (it is not needed)', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(64);
    const ticket = await reserve(server, traceId, bytes);
    const res = await put(server, ticket, bytes, { authorization: `Bearer ${server.keys.read}` });
    expect(res.status).toBe(201);
  });

  it('lets the tracing key, the Read-and-write key and the setup credential reserve and complete; not the Read key', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(10);
    await upload(server, traceId, bytes);
    for (const key of [server.keys.tracing, server.keys.readWrite, server.keys.setup]) {
      expect((await postReservation(reservation(traceId, bytes), key)).status).toBe(200);
      expect((await complete(traceId, sha256Of(bytes), key)).status).toBe(200);
    }
    expect(await errorOf(await postReservation(reservation(traceId, bytes), server.keys.read))).toMatchObject(
      {
        status: 403,
        code: 'forbidden',
      },
    );
    expect((await complete(traceId, sha256Of(bytes), server.keys.read)).status).toBe(403);
    expect(
      (await call(server, '/api/v1/otlp/blobs', { method: 'POST', json: reservation(traceId, bytes) }))
        .status,
    ).toBe(401);
  });
});

describe('refused uploads keep nothing, and the server keeps serving', () => {
  it('refuses a body shorter than the reservation (400 size_mismatch), then takes the right one', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(5000);
    const ticket = await reserve(server, traceId, bytes);
    const res = await put(server, ticket, bytes.subarray(0, 4000), { 'content-length': '' });
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'size_mismatch' });
    await expectNothingKept(traceId, sha256Of(bytes));
    expect((await put(server, ticket, bytes)).status).toBe(201);
  });

  it('refuses a body longer than the reservation as soon as it runs over', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(1000);
    const ticket = await reserve(server, traceId, bytes);
    let sent = 0;
    // An endless body: the store must stop reading once past the reserved size.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 512;
        controller.enqueue(new Uint8Array(512));
      },
    });
    const res = await call(server, ticket.url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'size_mismatch' });
    expect(sent).toBeLessThan(64 * 1024);
    await expectNothingKept(traceId, sha256Of(bytes));
  });

  it('refuses a Content-Length other than the reserved size without reading the body', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(100);
    const ticket = await reserve(server, traceId, bytes);
    const res = await put(server, ticket, bytes, { 'content-length': '99' });
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'size_mismatch' });
    await expectNothingKept(traceId, sha256Of(bytes));
  });

  it('refuses a body of the right size but another digest (400 digest_mismatch)', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(777);
    const ticket = await reserve(server, traceId, bytes);
    const res = await put(server, ticket, randomBytes(777));
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 400, code: 'digest_mismatch' });
    expect(error.message).toBe('The SHA-256 of the body differs from the reserved sha256. Nothing was kept.');
    await expectNothingKept(traceId, sha256Of(bytes));
  });

  it('refuses an expired link (403 link_expired) and stores nothing', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(50);
    const ticket = await reserve(expiring, traceId, bytes);
    expect(Date.parse(ticket.expiresAt)).toBeLessThanOrEqual(Date.now());
    const res = await put(expiring, ticket, bytes);
    expect(await errorOf(res)).toMatchObject({ status: 403, code: 'link_expired' });
    expect(existsSync(blobPath(expiring, sha256Of(bytes)))).toBe(false);
  });

  it('refuses links whose signature does not match (403 forbidden)', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(50);
    const ticket = await reserve(server, traceId, bytes);
    const other = await reserve(server, traceId, randomBytes(50));
    const url = new URL(ticket.url);
    const tampered = [
      ticket.url.replace(/signature=[\w-]+/, `signature=${'A'.repeat(43)}`),
      ticket.url.replace(/&signature=[\w-]+/, ''),
      ticket.url.replace(/expires=\d+/, `expires=${Number(url.searchParams.get('expires')) + 1}`),
      // Another reservation's signature does not carry over.
      ticket.url.replace(/signature=[\w-]+/, `signature=${new URL(other.url).searchParams.get('signature')}`),
    ];
    for (const link of tampered) {
      const res = await put(server, { ...ticket, url: link }, bytes);
      expect(await errorOf(res)).toMatchObject({ status: 403, code: 'forbidden' });
    }
    await expectNothingKept(traceId, sha256Of(bytes));
    expect((await put(server, ticket, bytes)).status).toBe(201);
  });
});

describe('reservation requests', () => {
  const traceId = newTraceId();
  const bytes = randomBytes(8);
  it.each([
    ['traceId', { traceId: 'ABC' }],
    ['traceId', { traceId: '0'.repeat(32) }],
    ['sha256', { sha256: 'f'.repeat(63) }],
    ['sha256', { sha256: 'F'.repeat(64) }],
    ['byteSize', { byteSize: -1 }],
    ['byteSize', { byteSize: 1.5 }],
    ['byteSize', { byteSize: '8' }],
    ['contentType', { contentType: '' }],
    ['contentType', { contentType: 'image/png\r\nx-evil: 1' }],
    ['contentType', { contentType: 'no-slash' }],
    ['key', { key: '' }],
    ['key', { key: undefined }],
  ])('refuses an invalid %s with 400 invalid_request naming it', async (field, override) => {
    const res = await postReservation(reservation(traceId, bytes, override));
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.message.startsWith(`${field}:`)).toBe(true);
  });

  it('refuses a file over 1,000,000,000 bytes with 413 payload_too_large', async () => {
    const res = await postReservation(reservation(traceId, bytes, { byteSize: 1_000_000_001 }));
    expect(await errorOf(res)).toMatchObject({ status: 413, code: 'payload_too_large' });
    const atLimit = await postReservation(reservation(traceId, bytes, { byteSize: 1_000_000_000 }));
    expect(atLimit.status).toBe(200);
  });

  it('accepts media types with parameters', async () => {
    const res = await postReservation(
      reservation(traceId, bytes, { contentType: 'audio/pcm;rate=24000;channels=1' }),
    );
    expect(((await res.json()) as UploadTicket).headers['content-type']).toBe(
      'audio/pcm;rate=24000;channels=1',
    );
  });

  it('refuses a body that is not JSON (400) and a body over 64 KiB (413)', async () => {
    const notJson = await call(server, '/api/v1/otlp/blobs', {
      method: 'POST',
      key: server.keys.tracing,
      headers: { 'content-type': 'application/json' },
      body: '{"traceId":',
    });
    expect(await errorOf(notJson)).toMatchObject({ status: 400, code: 'invalid_request' });
    const huge = await postReservation({ ...reservation(traceId, bytes), padding: 'x'.repeat(70_000) });
    expect(await errorOf(huge)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('refuses a reservation whose size differs from the stored file of that digest in the trace', async () => {
    const trace = newTraceId();
    await upload(server, trace, bytes);
    const res = await postReservation(reservation(trace, bytes, { byteSize: 9 }));
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('validates completion requests', async () => {
    const res = await call(server, '/api/v1/otlp/blobs/complete', {
      method: 'POST',
      key: server.keys.tracing,
      json: { traceId: 'nope', sha256: sha256Of(bytes) },
    });
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});
