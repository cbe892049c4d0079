/**
 * `media.fetch` against the real reference server: files uploaded through the documented HTTP
 * routes and listed by an OTLP JSON span, then read back; every reason of MediaFetchError produced
 * by the server itself.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { startServer } from '@svc-run/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { MediaFetchError, type MediaFetchErrorReason } from '../../errors/media-fetch-error.js';
import { sha256Hex } from '../scan/test-support.js';
import {
  blobEntry,
  exportSpan,
  newSpanId,
  newTraceId,
  serviceTraceId,
  uploadFile,
  useMediaServer,
} from './__fixtures__/media-server.js';
import { createMediaReader } from './media-reader.js';

const server = useMediaServer({ faultInjection: true });

/** The stored copy of a file in the server's data directory. */
function storedPath(sha256: string): string {
  const matches: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry === sha256) matches.push(path);
    }
  };
  walk(join(server().dataDir, 'blobs'));
  if (matches.length !== 1) throw new Error(`expected one stored copy, found ${matches.length}`);
  return matches[0]!;
}

function reader(key: string = server().keys.read) {
  return createMediaReader({ apiKey: key, baseUrl: server().origin, timeoutMillis: 60_000 });
}

/** The MediaFetchError `promise` rejects with; checks its message shows no key and no link. */
async function failure(promise: Promise<unknown>, reason: MediaFetchErrorReason): Promise<MediaFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MediaFetchError.isInstance(error))
    throw new Error(`expected a MediaFetchError, got ${inspect(error)}`);
  expect(error.reason).toBe(reason);
  const shown = `${error.message} ${inspect(error, { depth: 10, showHidden: true })}`;
  for (const key of Object.values(server().keys)) expect(shown).not.toContain(key);
  expect(shown).not.toMatch(/sig=|signature=|expires=/i);
  return error;
}

describe('media.fetch on the reference server', () => {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const image = randomBytes(50_000);
  const imageSha = sha256Hex(image);
  const neverUploaded = randomBytes(1_000);
  const key = 'gen_ai.input.messages#/0/parts/1';

  beforeAll(async () => {
    await uploadFile(server(), traceId, image, 'image/png', key);
    await exportSpan(server(), traceId, spanId, {
      'svc.blobs': [
        blobEntry(key, image, 'image/png', 'cat.png'),
        blobEntry('gen_ai.input.messages#/0/parts/2', neverUploaded, 'image/jpeg'),
      ],
    });
  });

  it('reads the bytes back with a Read key, and with a Read and write key', async () => {
    const bytes = await reader().fetch({ traceId, sha256: imageSha });
    expect(Buffer.from(bytes).equals(image)).toBe(true);
    expect(sha256Hex(bytes)).toBe(imageSha);
    const again = await reader(server().keys.readWrite).fetch({ traceId, sha256: imageSha, spanId });
    expect(Buffer.from(again).equals(image)).toBe(true);
  });

  it('reads a file a span holds inline (a plain OpenTelemetry exporter never uploaded it) with spanId', async () => {
    const inlineTrace = newTraceId();
    const inlineSpan = newSpanId();
    const png = randomBytes(3_000);
    const input = [
      {
        role: 'user',
        parts: [{ type: 'blob', modality: 'image', mime_type: 'image/png', content: png.toString('base64') }],
      },
    ];
    await exportSpan(server(), inlineTrace, inlineSpan, { 'gen_ai.input.messages': JSON.stringify(input) });
    const bytes = await reader().fetch({ traceId: inlineTrace, sha256: sha256Hex(png), spanId: inlineSpan });
    expect(Buffer.from(bytes).equals(png)).toBe(true);
    // Without the span, the trace holds no such file.
    await failure(reader().fetch({ traceId: inlineTrace, sha256: sha256Hex(png) }), 'not_found');
  });

  it('accepts the service trace ID (a UUID)', async () => {
    const bytes = await reader().fetch({ traceId: serviceTraceId(traceId), sha256: imageSha });
    expect(bytes.length).toBe(image.length);
  });

  it('not_found: the trace holds no file with that digest', async () => {
    const error = await failure(reader().fetch({ traceId, sha256: sha256Hex(randomBytes(8)) }), 'not_found');
    expect(error.status).toBe(404);
    await failure(reader().fetch({ traceId: newTraceId(), sha256: imageSha }), 'not_found');
  });

  it('missing: a span lists the file but it was never uploaded', async () => {
    const error = await failure(reader().fetch({ traceId, sha256: sha256Hex(neverUploaded) }), 'missing');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/never uploaded/);
  });

  it('missing: a svc.file event names the file but it was never uploaded', async () => {
    const recordedOnly = randomBytes(500);
    const eventTrace = newTraceId();
    await exportSpan(server(), eventTrace, newSpanId(), {}, [
      {
        name: 'svc.file',
        attributes: {
          'svc.file.sha256': sha256Hex(recordedOnly),
          'svc.file.size': recordedOnly.length,
          'svc.file.media_type': 'application/pdf',
          'svc.file.role': 'input',
        },
      },
    ]);
    const error = await failure(
      reader().fetch({ traceId: eventTrace, sha256: sha256Hex(recordedOnly) }),
      'missing',
    );
    expect(error.status).toBe(404);
  });

  it('maps the server answering 503 to unavailable and a reset download to failed, without retrying', async () => {
    server().faults!.inject('traces.blob', { kind: 'status', status: 503 });
    const busy = await failure(reader().fetch({ traceId, sha256: imageSha }), 'unavailable');
    expect(busy.status).toBe(503);
    server().faults!.inject('blobs.download', { kind: 'reset' });
    const reset = await failure(reader().fetch({ traceId, sha256: imageSha }), 'failed');
    expect(reset.status).toBeUndefined();
    expect(server().faults!.pending('traces.blob') + server().faults!.pending('blobs.download')).toBe(0);
    // The next read is not affected.
    expect((await reader().fetch({ traceId, sha256: imageSha })).length).toBe(image.length);
  });

  it('forbidden: a Tracing key or a setup credential cannot read files; a wrong key is rejected', async () => {
    const tracing = await failure(
      reader(server().keys.tracing).fetch({ traceId, sha256: imageSha }),
      'forbidden',
    );
    expect(tracing.status).toBe(403);
    expect(tracing.message).toMatch(/needs a Read or Read and write key/);
    const setup = await failure(
      reader(server().keys.setup).fetch({ traceId, sha256: imageSha }),
      'forbidden',
    );
    expect(setup.status).toBe(403);
    const wrong = await failure(
      reader('svc_read_not_a_key').fetch({ traceId, sha256: imageSha }),
      'forbidden',
    );
    expect(wrong.status).toBe(401);
  });

  it('too_large: a file over maxBytes is refused; exactly maxBytes is read', async () => {
    const error = await failure(
      reader().fetch({ traceId, sha256: imageSha, maxBytes: image.length - 1 }),
      'too_large',
    );
    expect(error.message).toContain(`maxBytes (${image.length - 1} bytes)`);
    const bytes = await reader().fetch({ traceId, sha256: imageSha, maxBytes: image.length });
    expect(bytes.length).toBe(image.length);
  });

  it('digest_mismatch: bytes tampered with on disk are refused', async () => {
    const tampered = randomBytes(4_000);
    const tamperedTrace = newTraceId();
    await uploadFile(server(), tamperedTrace, tampered, 'application/pdf', 'input.value#');
    const sha256 = sha256Hex(tampered);
    const path = storedPath(sha256);
    const changed = Buffer.from(tampered);
    changed[100] = changed[100]! ^ 0xff;
    writeFileSync(path, changed);
    const error = await failure(reader().fetch({ traceId: tamperedTrace, sha256 }), 'digest_mismatch');
    expect(error.status).toBe(200);
  });

  it('unavailable: the stored file was removed from the data directory', async () => {
    const gone = randomBytes(3_000);
    const goneTrace = newTraceId();
    await uploadFile(server(), goneTrace, gone, 'audio/wav', 'output.value#');
    rmSync(storedPath(sha256Hex(gone)));
    const error = await failure(
      reader().fetch({ traceId: goneTrace, sha256: sha256Hex(gone) }),
      'unavailable',
    );
    expect(error.status).toBe(503);
  });
});

describe('media.fetch when links expire or the server is gone', () => {
  it('forbidden: a download link that expired before use', async () => {
    // A link living 0 ms has expired when it is fetched.
    const shortLived = await startServer({ downloadLinkTtlMillis: 0 });
    try {
      const media = createMediaReader({ apiKey: shortLived.keys.read, baseUrl: shortLived.origin });
      const bytes = randomBytes(100);
      const traceId = newTraceId();
      const sha256 = sha256Hex(bytes);
      await uploadFile(shortLived, traceId, bytes, 'image/png', 'input.value#');
      const error = await failure(media.fetch({ traceId, sha256 }), 'forbidden');
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/expired before it was used/);
    } finally {
      await shortLived.close();
    }
  });

  it('failed: no server answers', async () => {
    const gone = await startServer();
    const { origin, keys } = gone;
    await gone.close();
    const media = createMediaReader({ apiKey: keys.read, baseUrl: origin });
    const error = await failure(media.fetch({ traceId: newTraceId(), sha256: 'a'.repeat(64) }), 'failed');
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect(error.message).not.toContain(keys.read);
  });
});
