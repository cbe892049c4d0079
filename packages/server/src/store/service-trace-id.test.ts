import { describe, expect, it } from 'vitest';
import { otelTraceIdOf, serviceTraceId, traceIdFromEither } from './service-trace-id.js';

describe('service trace ID', () => {
  it('writes the trace ID as a UUID and reads it back', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(serviceTraceId(traceId)).toBe('4bf92f35-77b3-4da6-a3ce-929d0e0e4736');
    expect(otelTraceIdOf(serviceTraceId(traceId))).toBe(traceId);
  });

  it('refuses what is not a lowercase UUID', () => {
    expect(otelTraceIdOf('4bf92f3577b34da6a3ce929d0e0e4736')).toBeUndefined();
    expect(otelTraceIdOf('4BF92F35-77B3-4DA6-A3CE-929D0E0E4736')).toBeUndefined();
  });

  it('reads a trace ID given in either form, refusing other text and the all-zero ID', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(traceIdFromEither(traceId)).toBe(traceId);
    expect(traceIdFromEither(serviceTraceId(traceId))).toBe(traceId);
    expect(traceIdFromEither(traceId.toUpperCase())).toBeUndefined();
    expect(traceIdFromEither(`${traceId}0`)).toBeUndefined();
    expect(traceIdFromEither('0'.repeat(32))).toBeUndefined();
    expect(traceIdFromEither(serviceTraceId('0'.repeat(32)))).toBeUndefined();
  });
});
