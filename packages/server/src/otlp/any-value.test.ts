import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidRecordError,
  normalizeAnyValue,
  normalizeKeyValues,
  RoundedIntegerError,
  readTimestamp,
} from './any-value.js';
import { decodeTraces } from './decode-traces.js';
import type { AnyValue, KeyValue } from './model.js';
import { otlpProto } from './otlp-proto.js';
import { tracesFromProto } from './proto-to-json.js';

/** Arbitrary OTLP `AnyValue` trees in their canonical stored form. */
const anyValue: fc.Arbitrary<AnyValue> = fc.letrec<{ value: AnyValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map((s) => ({ stringValue: s })),
    fc.boolean().map((b) => ({ boolValue: b })),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((i) => ({ intValue: i.toString() })),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((d) => ({ doubleValue: Object.is(d, -0) ? 0 : d })),
    fc
      .uint8Array({ minLength: 1, maxLength: 16 })
      .map((b) => ({ bytesValue: Buffer.from(b).toString('base64') })),
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
    fc
      .array(fc.record({ key: fc.string(), value: tie('value') }), { maxLength: 3 })
      .map((values) => ({ kvlistValue: { values } })),
  ),
})).value;

const attributes: fc.Arbitrary<KeyValue[]> = fc.array(fc.record({ key: fc.string(), value: anyValue }), {
  maxLength: 5,
});

function traceRequest(attrs: KeyValue[], ids: { traceId: unknown; spanId: unknown }) {
  return { resourceSpans: [{ scopeSpans: [{ spans: [{ ...ids, name: 'n', attributes: attrs }] }] }] };
}

describe('AnyValue normalization', () => {
  it('keeps canonical values as they are (identity on the stored form)', () => {
    fc.assert(
      fc.property(attributes, (attrs) => {
        expect(normalizeKeyValues(JSON.parse(JSON.stringify(attrs)))).toEqual(attrs);
      }),
    );
  });

  it('decodes the same attributes from OTLP JSON and from protobuf', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    fc.assert(
      fc.property(attributes, (attrs) => {
        const fromJson = decodeTraces(JSON.parse(JSON.stringify(traceRequest(attrs, { traceId, spanId }))));
        const type = otlpProto.ExportTraceServiceRequest;
        const wire = type
          .encode(
            type.fromObject(
              traceRequest(attrs, {
                traceId: Buffer.from(traceId, 'hex'),
                spanId: Buffer.from(spanId, 'hex'),
              }),
            ),
          )
          .finish();
        const fromProto = decodeTraces(tracesFromProto(type.decode(wire)));
        expect(fromJson.rejected).toBe(0);
        expect(fromProto.groups[0]?.records[0]?.attributes).toEqual(
          fromJson.groups[0]?.records[0]?.attributes,
        );
        expect(fromProto.groups[0]?.records[0]?.traceId).toBe(traceId);
      }),
      { numRuns: 200 },
    );
  });

  it('reads an absent key as the empty key, as proto3 omits empty strings', () => {
    expect(normalizeKeyValues([{ value: { boolValue: true } }])).toEqual([
      { key: '', value: { boolValue: true } },
    ]);
  });

  it('returns values already in the stored form without copying them', () => {
    const attrs = [
      { key: 'a', value: { arrayValue: { values: [{ intValue: '1' }, { stringValue: 'x' }] } } },
    ];
    expect(normalizeKeyValues(attrs)).toBe(attrs);
    const mixed = [
      { key: 'a', value: { stringValue: 'x' } },
      { key: 'b', value: { intValue: 2 } },
    ];
    const normalized = normalizeKeyValues(mixed);
    expect(normalized).not.toBe(mixed);
    expect(normalized[0]).toBe(mixed[0]);
    expect(normalized[1]).toEqual({ key: 'b', value: { intValue: '2' } });
    expect(mixed[1]).toEqual({ key: 'b', value: { intValue: 2 } });
  });

  it('keeps the first member of a value with several, and drops unknown members and extra fields', () => {
    expect(normalizeAnyValue({ stringValue: 'a', intValue: '1' })).toEqual({ stringValue: 'a' });
    expect(normalizeAnyValue({ intValue: 3, boolValue: true })).toEqual({ intValue: '3' });
    expect(normalizeAnyValue({ futureValue: 1, boolValue: true })).toEqual({ boolValue: true });
    expect(normalizeAnyValue({ futureValue: 1 })).toEqual({});
    expect(normalizeAnyValue({ stringValue: null, boolValue: false })).toEqual({ boolValue: false });
    expect(normalizeKeyValues([{ key: 'k', value: {}, note: 'x' }])).toEqual([{ key: 'k', value: {} }]);
  });

  it('reads JSON integers sent as numbers into decimal strings', () => {
    expect(normalizeAnyValue({ intValue: 42 })).toEqual({ intValue: '42' });
    expect(normalizeAnyValue({ doubleValue: 'NaN' })).toEqual({ doubleValue: 'NaN' });
    expect(normalizeAnyValue(null)).toEqual({});
  });

  it.each([
    ['a string as a value', 'x'],
    ['an array as a value', []],
    ['a non-integer intValue', { intValue: 1.5 }],
    ['a stringValue of another type', { stringValue: 3 }],
    ['an arrayValue without a values list', { arrayValue: { values: 'x' } }],
    ['a kvlist entry whose key is not a string', { kvlistValue: { values: [{ key: 1, value: {} }] } }],
  ])('refuses %s', (_what, value) => {
    expect(() => normalizeAnyValue(value)).toThrow(InvalidRecordError);
  });

  it('refuses values nested past the depth limit', () => {
    let deep: unknown = { stringValue: 'x' };
    for (let i = 0; i < 70; i++) deep = { arrayValue: { values: [deep] } };
    expect(() => normalizeAnyValue(deep)).toThrow('attribute value nested too deeply');
  });

  it('reads timestamps as decimal strings', () => {
    expect(readTimestamp(undefined)).toBe('0');
    expect(readTimestamp('1763740800000000000')).toBe('1763740800000000000');
    expect(readTimestamp(1000)).toBe('1000');
    expect(() => readTimestamp('1e9')).toThrow(InvalidRecordError);
    expect(readTimestamp('9223372036854775807')).toBe('9223372036854775807');
    expect(readTimestamp('000000000000000000001')).toBe('1');
    expect(readTimestamp('0')).toBe('0');
    expect(() => readTimestamp('')).toThrow('invalid timestamp');
    expect(() => readTimestamp(2 ** 60)).toThrow(RoundedIntegerError);
    expect(() => readTimestamp('9223372036854775808')).toThrow('invalid timestamp');
    expect(() => readTimestamp('18446744073709551615')).toThrow('invalid timestamp');
    expect(() => readTimestamp(2 ** 64)).toThrow(RoundedIntegerError);
  });

  it('accepts a timestamp exactly when it fits a signed 64-bit integer, whatever its digits, in canonical form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat({ max: 3 }), (time, zeros) => {
        const text = '0'.repeat(zeros) + time.toString();
        if (time <= 2n ** 63n - 1n) expect(readTimestamp(text)).toBe(time.toString());
        else expect(() => readTimestamp(text)).toThrow('invalid timestamp');
      }),
      { numRuns: 500 },
    );
  });

  it('keeps an intValue string exactly when it is an int64, in canonical form, and refuses it otherwise', () => {
    const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          fc.constantFrom(INT64[0], INT64[1], INT64[0] - 1n, INT64[1] + 1n, 0n),
        ),
        fc.nat({ max: 3 }),
        (n, zeros) => {
          const text = `${n < 0n ? '-' : ''}${'0'.repeat(zeros)}${(n < 0n ? -n : n).toString()}`;
          if (n >= INT64[0] && n <= INT64[1]) {
            expect(normalizeAnyValue({ intValue: text })).toEqual({ intValue: n.toString() });
          } else {
            expect(() => normalizeAnyValue({ intValue: text })).toThrow('integer outside int64');
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(normalizeAnyValue({ intValue: '-0' })).toEqual({ intValue: '0' });
    expect(() => normalizeAnyValue({ intValue: 2 ** 53 })).toThrow(RoundedIntegerError);
    expect(normalizeAnyValue({ intValue: -(2 ** 53) + 1 })).toEqual({ intValue: '-9007199254740991' });
  });

  it('refuses a double JSON.parse read as an infinity (a number past the double range)', () => {
    const [overflow, underflow] = [JSON.parse('1e400') as number, JSON.parse('-1e400') as number];
    expect(() => normalizeAnyValue({ doubleValue: overflow })).toThrow('double outside its range');
    expect(() => normalizeAnyValue({ doubleValue: underflow })).toThrow('double outside its range');
    expect(normalizeAnyValue({ doubleValue: 'Infinity' })).toEqual({ doubleValue: 'Infinity' });
  });
});
