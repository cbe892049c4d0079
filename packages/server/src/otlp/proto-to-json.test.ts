import { describe, expect, it } from 'vitest';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';
import { otlpProto } from './otlp-proto.js';
import { logsFromProto, tracesFromProto } from './proto-to-json.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';
const bytes = (hex: string) => Buffer.from(hex, 'hex');

function roundTrip<T>(type: typeof otlpProto.ExportTraceServiceRequest, request: Record<string, unknown>): T {
  return type.decode(type.encode(type.fromObject(request)).finish()) as T;
}

describe('protobuf requests in the OTLP JSON shape', () => {
  it('writes the largest fixed64 exactly; the decoder then refuses a time the store cannot hold', () => {
    const span = { traceId: bytes(traceId), spanId: bytes(spanId), name: 'late' };
    const message = roundTrip(otlpProto.ExportTraceServiceRequest, {
      resourceSpans: [{ scopeSpans: [{ spans: [{ ...span, startTimeUnixNano: '18446744073709551615' }] }] }],
    });
    const json = tracesFromProto(message) as {
      resourceSpans: { scopeSpans: { spans: { startTimeUnixNano: string }[] }[] }[];
    };
    expect(json.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.startTimeUnixNano).toBe('18446744073709551615');
    const decoded = decodeTraces(json);
    expect([decoded.accepted, decoded.rejected, [...decoded.reasons]]).toEqual([
      0,
      1,
      [['invalid timestamp', 1]],
    ]);
  });

  it('writes IDs as hex, fixed64 and int64 as decimal strings, bytes as base64, non-finite doubles as text', () => {
    const message = roundTrip(otlpProto.ExportTraceServiceRequest, {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
          scopeSpans: [
            {
              scope: { name: 'lib', version: '1' },
              spans: [
                {
                  traceId: bytes(traceId),
                  spanId: bytes(spanId),
                  parentSpanId: bytes('1111111111111111'),
                  name: 'chat',
                  kind: 3,
                  startTimeUnixNano: '9223372036854775807',
                  endTimeUnixNano: '1763740800000000001',
                  attributes: [
                    { key: 'neg', value: { intValue: '-9223372036854775808' } },
                    { key: 'small', value: { intValue: 7 } },
                    { key: 'nan', value: { doubleValue: Number.NaN } },
                    { key: 'inf', value: { doubleValue: Number.NEGATIVE_INFINITY } },
                    { key: 'raw', value: { bytesValue: bytes('00ff') } },
                    { key: 'empty', value: {} },
                    { key: 'f', value: { boolValue: false } },
                    { key: 's', value: { stringValue: '' } },
                  ],
                  status: { code: 2, message: 'boom' },
                  events: [{ timeUnixNano: '5', name: 'exception' }],
                  links: [{ traceId: bytes(traceId), spanId: bytes(spanId) }],
                },
              ],
            },
          ],
        },
      ],
    });
    const decoded = decodeTraces(tracesFromProto(message));
    expect(decoded.rejected).toBe(0);
    const span = decoded.groups[0]!.records[0]!;
    expect(span).toMatchObject({
      traceId,
      spanId,
      parentSpanId: '1111111111111111',
      name: 'chat',
      kind: 3,
      startTimeUnixNano: '9223372036854775807',
      endTimeUnixNano: '1763740800000000001',
      statusCode: 2,
      statusMessage: 'boom',
    });
    expect(span.attributes).toEqual([
      { key: 'neg', value: { intValue: '-9223372036854775808' } },
      { key: 'small', value: { intValue: '7' } },
      { key: 'nan', value: { doubleValue: 'NaN' } },
      { key: 'inf', value: { doubleValue: '-Infinity' } },
      { key: 'raw', value: { bytesValue: 'AP8=' } },
      { key: 'empty', value: {} },
      { key: 'f', value: { boolValue: false } },
      { key: 's', value: { stringValue: '' } },
    ]);
    expect(span.events).toEqual([
      { timeUnixNano: '5', name: 'exception', attributes: [], droppedAttributesCount: 0 },
    ]);
    expect(span.links[0]).toMatchObject({ traceId, spanId });
    expect(decoded.groups[0]!.scope).toMatchObject({ name: 'lib', version: '1' });
  });

  it('refuses spans whose ID bytes have the wrong length', () => {
    const message = roundTrip(otlpProto.ExportTraceServiceRequest, {
      resourceSpans: [
        { scopeSpans: [{ spans: [{ traceId: bytes('abcd'), spanId: bytes(spanId), name: 'x' }] }] },
      ],
    });
    expect(decodeTraces(tracesFromProto(message)).reasons).toEqual(new Map([['invalid trace ID', 1]]));
  });

  it('converts log records, uncorrelated ones included', () => {
    const type = otlpProto.ExportLogsServiceRequest;
    const message = roundTrip(type as typeof otlpProto.ExportTraceServiceRequest, {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  traceId: bytes(traceId),
                  spanId: bytes(spanId),
                  timeUnixNano: '9',
                  severityNumber: 9,
                  body: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } },
                  eventName: 'gen_ai.client.inference.operation.details',
                },
                { body: { stringValue: 'plain' } },
              ],
            },
          ],
        },
      ],
    });
    const decoded = decodeLogs(logsFromProto(message));
    expect(decoded.rejected).toBe(0);
    const [correlated, plain] = decoded.groups[0]!.records;
    expect(correlated).toMatchObject({
      traceId,
      spanId,
      timeUnixNano: '9',
      severityNumber: 9,
      eventName: 'gen_ai.client.inference.operation.details',
      body: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } },
    });
    expect(plain).toMatchObject({ traceId: '', spanId: '', body: { stringValue: 'plain' } });
  });
});
