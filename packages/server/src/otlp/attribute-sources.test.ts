import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributeSources, scanRecordAttributes } from './attribute-sources.js';
import { LOGS_ENVELOPE } from './decode-logs.js';
import { TRACES_ENVELOPE } from './decode-traces.js';

type Json = Record<string, unknown>;

function span(name: string, attributes?: unknown): Json {
  return { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name, attributes };
}

const request = (spans: unknown[], extra: Json = {}): Json => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
      scopeSpans: [
        { scope: { name: 'lib', attributes: [{ key: 'scope', value: { boolValue: true } }] }, spans },
      ],
    },
  ],
  ...extra,
});

/** Each found source, parsed, by the name of its span. */
function sourcesByName(text: string): Map<string, unknown> {
  const parsed = JSON.parse(text) as Json;
  const sources = attributeSources(text, parsed, TRACES_ENVELOPE);
  if (sources === null) throw new Error('no sources');
  const byName = new Map<string, unknown>();
  for (const resource of parsed.resourceSpans as Json[]) {
    for (const scope of resource.scopeSpans as Json[]) {
      for (const s of scope.spans as Json[]) {
        if (s?.constructor !== Object) continue;
        const slice = sources.get(s.attributes as unknown[]);
        if (slice !== undefined) byName.set(s.name as string, JSON.parse(text.slice(slice[0], slice[1])));
      }
    }
  }
  return byName;
}

describe('attribute sources of an OTLP JSON request', () => {
  it('find each span attribute list exactly as written, and no resource, scope or event list', () => {
    const attributes = [
      {
        key: 'gen_ai.input.messages',
        value: { stringValue: '[{"role":"user","content":"say \\"hi\\" \\\\"}]' },
      },
      { key: 'tricky', value: { stringValue: '"attributes":[1,2]}], "spans": [' } },
      { key: 'n', value: { intValue: '42' } },
    ];
    const withEvent = {
      ...span('b', attributes),
      events: [{ name: 'e', attributes: [{ key: 'x', value: {} }] }],
    };
    const text = JSON.stringify(request([span('a', attributes), withEvent, span('c')]));
    const parsed = JSON.parse(text) as Json;
    const sources = attributeSources(text, parsed, TRACES_ENVELOPE)!;
    const spans = ((parsed.resourceSpans as Json[])[0]!.scopeSpans as Json[])[0]!.spans as Json[];
    expect(sources.size).toBe(2);
    for (const s of spans.slice(0, 2)) {
      const [start, end] = sources.get(s.attributes as unknown[])!;
      expect(text.slice(start, end)).toBe(JSON.stringify(attributes));
    }
  });

  it('follow JSON.parse through any layout: whitespace, member order, unknown members, non-object records', () => {
    const attributes = [{ key: 'k', value: { arrayValue: { values: [{ stringValue: ']}' }] } } }];
    const spans = [
      { attributes, name: 'first', extra: { attributes: [{ key: 'not this one' }], spans: [[]] } },
      42,
      ['not', 'a', 'record'],
      { name: 'twice', attributes: [{ key: 'dropped' }], other: null, attributes2: 1 },
      null,
      span('last', attributes),
    ];
    const text = JSON.stringify(request(spans, { unknown: { resourceSpans: [{ scopeSpans: [] }] } }), null, 2)
      // A repeated `attributes` member: JSON.parse keeps the last one, and so do the sources.
      .replace('"attributes2": 1', '"attributes": [ {"key" : "kept"} ]');
    const byName = sourcesByName(text);
    expect(byName.get('first')).toEqual(attributes);
    expect(byName.get('twice')).toEqual([{ key: 'kept' }]);
    expect(byName.get('last')).toEqual(attributes);
  });

  it('find log record lists with the log envelope', () => {
    const attributes = [{ key: 'event', value: { stringValue: 'x' } }];
    const text = JSON.stringify({
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'b' }, attributes }] }] }],
    });
    expect(scanRecordAttributes(text, LOGS_ENVELOPE)).toEqual([
      text.indexOf('[{"key":"event"'),
      text.indexOf(']}]}]}]}') + 1,
    ]);
  });

  it('give up where its reading could differ from JSON.parse: escaped path names, repeated lists', () => {
    const text = JSON.stringify(request([span('a', [])]));
    const cases = [
      text.replace('"spans"', '"sp\\u0061ns"'),
      text.replace('"scopeSpans"', '"scope\\u0053pans"'),
      text.replace('{"resourceSpans":', '{"resourceSpans":[],"resourceSpans":'),
      text.replace('"spans":[', '"spans":[],"spans":['),
    ];
    for (const variant of cases) {
      JSON.parse(variant); // still valid JSON
      expect(attributeSources(variant, JSON.parse(variant), TRACES_ENVELOPE)).toBeNull();
    }
  });

  it('agree with JSON.parse on generated requests', () => {
    const jsonString = fc.string({ unit: 'binary' });
    const value = fc.oneof(
      fc.record({ stringValue: jsonString }),
      fc.record({ intValue: fc.integer().map(String) }),
      fc.record({
        arrayValue: fc.record({ values: fc.array(fc.record({ stringValue: jsonString }), { maxLength: 3 }) }),
      }),
      fc.constant({}),
    );
    const attributes = fc.array(fc.record({ key: jsonString, value }), { maxLength: 5 });
    const record = fc.record(
      { name: fc.string(), attributes, junk: fc.jsonValue({ maxDepth: 3 }) },
      { requiredKeys: ['name'] },
    );
    const envelope = fc.array(
      fc.record({
        resource: fc.record({ attributes }),
        scopeSpans: fc.array(
          fc.record({ spans: fc.array(fc.oneof(record, fc.integer()), { maxLength: 4 }) }),
          {
            maxLength: 3,
          },
        ),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(envelope, fc.constantFrom(0, 1, '\t'), (resourceSpans, indent) => {
        const text = JSON.stringify({ resourceSpans }, null, indent);
        const parsed = JSON.parse(text) as Json;
        const sources = attributeSources(text, parsed, TRACES_ENVELOPE);
        expect(sources).not.toBeNull();
        let lists = 0;
        for (const resource of parsed.resourceSpans as Json[]) {
          for (const scope of resource.scopeSpans as Json[]) {
            for (const s of scope.spans as unknown[]) {
              const list = (s as Json | number)?.constructor === Object ? (s as Json).attributes : undefined;
              if (!Array.isArray(list)) continue;
              lists++;
              const [start, end] = sources!.get(list)!;
              expect(JSON.parse(text.slice(start, end))).toEqual(list);
            }
          }
        }
        expect(sources!.size).toBe(lists);
      }),
      { numRuns: 300 },
    );
  });
});
