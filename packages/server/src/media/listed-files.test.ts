import { describe, expect, it } from 'vitest';
import { listedFiles, validFileName } from './listed-files.js';

const SHA = 'a'.repeat(64);

describe('validFileName', () => {
  it('accepts names of 1 to 256 code units with visible content', () => {
    expect(validFileName('a')).toBe('a');
    expect(validFileName(' report.pdf ')).toBe(' report.pdf ');
    expect(validFileName('x'.repeat(256))).toBe('x'.repeat(256));
    expect(validFileName('猫.png')).toBe('猫.png');
  });

  it('refuses blank, long, ill-formed or control-character names and non-strings', () => {
    for (const name of [
      '',
      '   ',
      'x'.repeat(257),
      'a\u0000b',
      'tab\there',
      'del\u007f',
      '\ud800.png',
      42,
      null,
    ]) {
      expect(validFileName(name)).toBeUndefined();
    }
  });
});

describe('listedFiles', () => {
  const entry = (key: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ key, sha256: SHA, size: 3, content_type: 'image/png', ...extra });
  const blobs = (...entries: string[]) => ({
    arrayValue: { values: entries.map((stringValue) => ({ stringValue })) },
  });

  it('reads svc.blobs entries of spans and logs, and svc.file events, in order', () => {
    const files = listedFiles([
      {
        source: 'blobs',
        record: 'span',
        spanId: 's1',
        value: blobs(entry('a#'), entry('b#', { name: 'b.png' })),
      },
      {
        source: 'event',
        record: 'span',
        spanId: 's1',
        attributes: [
          { key: 'svc.file.sha256', value: { stringValue: SHA } },
          { key: 'svc.file.size', value: { intValue: '3' } },
          { key: 'svc.file.media_type', value: { stringValue: 'image/png' } },
          { key: 'svc.file.role', value: { stringValue: 'bogus' } },
        ],
      },
      { source: 'blobs', record: 'log', spanId: 's1', logTimeUnixNano: '5', value: blobs(entry('a#')) },
    ]);
    expect(files.map((f) => [f.key, f.record, f.name, f.role, f.listed])).toEqual([
      ['a#', 'span', null, null, true],
      ['b#', 'span', 'b.png', null, true],
      [`event:svc.file:${SHA}`, 'span', null, null, false],
      ['a#', 'log', null, null, true],
    ]);
  });

  it('ignores values that are not string arrays, and events missing a field', () => {
    expect(
      listedFiles([
        { source: 'blobs', record: 'span', spanId: 's', value: { stringValue: entry('a#') } },
        { source: 'blobs', record: 'span', spanId: 's', value: null },
        {
          source: 'blobs',
          record: 'span',
          spanId: 's',
          value: { arrayValue: { values: [{ intValue: '1' }] } },
        },
        {
          source: 'event',
          record: 'span',
          spanId: 's',
          attributes: [{ key: 'svc.file.sha256', value: { stringValue: SHA } }],
        },
      ]),
    ).toEqual([]);
  });
});
