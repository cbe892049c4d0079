/**
 * Every recorded-message fixture of `fixtures/messages` (real provider and framework formats),
 * sent the way a plain OpenTelemetry exporter sends it — the official OTLP serializers, bytes
 * still inline, no `svc.blobs` — then read back with `spanDetail`: each inline file shows up as a
 * file with its `svc.blobs`-style key (attribute and JSON pointer), the digest the server computed,
 * its size, media type and name; each place the fixture keeps as recorded is never a file.
 */
import { describe, expect, it } from 'vitest';
import { allMessageFixtures, blobKey } from '../../../../fixtures/messages/index.js';
import type { MessageFixture } from '../../../../fixtures/messages/message-fixture.js';
import { call } from '../test-support/media-fixtures.js';
import { newSpanId, newTraceId } from '../test-support/otlp-fixtures.js';
import { encodeSdkLogRecords, encodeSdkSpans, sdkLogRecord, sdkSpan } from '../test-support/sdk-records.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();
const resource = { attributes: { 'service.name': 'plain-otel-exporter' } };
const scope = { name: 'fixtures' };

async function post(signal: 'traces' | 'logs', body: Uint8Array, encoding: 'json' | 'protobuf') {
  const res = await call(fx.server, `/api/v1/otlp/v1/${signal}`, {
    method: 'POST',
    key: fx.server.keys.tracing,
    headers: { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf' },
    body,
  });
  expect(res.status).toBe(200);
}

/** Records the fixture as a plain exporter would; returns the span to read. */
async function record(fixture: MessageFixture, encoding: 'json' | 'protobuf') {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const attributes: Record<string, unknown> = { ...(fixture.spanAttributes ?? {}) };
  if (fixture.attribute !== 'body') {
    attributes[fixture.attribute] = fixture.text === true ? fixture.value : JSON.stringify(fixture.value);
  }
  await post(
    'traces',
    encodeSdkSpans([sdkSpan({ traceId, spanId, resource, scope, attributes })], encoding),
    encoding,
  );
  if (fixture.attribute === 'body') {
    const log = sdkLogRecord({
      traceId,
      spanId,
      resource,
      scope,
      body: fixture.value,
      attributes: fixture.eventName === undefined ? {} : { 'event.name': fixture.eventName },
    });
    await post('logs', encodeSdkLogRecords([{ ...log, eventName: fixture.eventName }], encoding), encoding);
  }
  return { traceId, spanId };
}

interface FileView {
  key: string;
  sha256: string;
  size: number;
  contentType: string;
  name?: string;
  form: string;
  state: string;
}

describe.each(['json', 'protobuf'] as const)(
  'spanDetail of every fixture, sent by a plain exporter (%s)',
  (encoding) => {
    it.each(allMessageFixtures.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
      const { traceId, spanId } = await record(fixture, encoding);
      const res = await call(fx.server, `/api/v1/traces/${traceId}/spans/${spanId}?includeContent=true`, {
        key: fx.server.keys.read,
      });
      expect(res.status).toBe(200);
      const detail = (await res.json()) as { files: FileView[] };
      const byKey = new Map(detail.files.map((file) => [file.key, file]));
      for (const file of fixture.files) {
        const shown = byKey.get(blobKey(fixture, file));
        expect(shown, `${blobKey(fixture, file)} in ${[...byKey.keys()].join(', ')}`).toBeDefined();
        expect(shown).toMatchObject({
          sha256: file.sha256,
          size: file.size,
          contentType: file.mediaType,
          form: 'inline',
          state: 'not uploaded',
          ...(file.name === undefined ? {} : { name: file.name }),
        });
      }
      expect(detail.files.filter((f) => f.form === 'inline')).toHaveLength(fixture.files.length);
      for (const kept of fixture.kept ?? []) {
        expect(byKey.has(`${fixture.attribute}#${kept.pointer}`), `${kept.pointer}: ${kept.reason}`).toBe(
          false,
        );
      }
    });
  },
);
