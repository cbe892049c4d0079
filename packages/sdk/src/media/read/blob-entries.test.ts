import { describe, expect, it } from 'vitest';
import { blobEntriesBySha256 } from './blob-entries.js';

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);

describe('blobEntriesBySha256', () => {
  it('reads entries given as the attribute strings or parsed, by digest', () => {
    const map = blobEntriesBySha256([
      JSON.stringify({
        key: 'gen_ai.input.messages#/0/parts/1',
        sha256: a,
        size: 3,
        content_type: 'image/png',
        name: 'cat.png',
      }),
      { key: 'event:svc.file:b', sha256: b, size: 0, content_type: 'text/plain' },
    ]);
    expect([...map.keys()]).toEqual([a, b]);
    expect(map.get(a)).toEqual({
      key: 'gen_ai.input.messages#/0/parts/1',
      sha256: a,
      size: 3,
      content_type: 'image/png',
      name: 'cat.png',
    });
  });

  it('ignores unparsable entries and reads at most 64', () => {
    const valid = (i: number) =>
      JSON.stringify({
        key: `k#/${i}`,
        sha256: i.toString(16).padStart(64, '0'),
        size: 1,
        content_type: 'x/y',
      });
    const entries = [
      '{not json',
      JSON.stringify({ key: 'k', sha256: 'A'.repeat(64), size: 1, content_type: 'x/y' }),
      JSON.stringify({ key: 'k', sha256: a, size: -1, content_type: 'x/y' }),
      JSON.stringify({ sha256: a, size: 1, content_type: 'x/y' }),
      42,
      null,
      ...Array.from({ length: 70 }, (_, i) => valid(i + 1)),
    ];
    const map = blobEntriesBySha256(entries);
    expect(map.size).toBe(64 - 6);
    expect(map.has(a)).toBe(false);
  });

  it('rejects a value that is not an array', () => {
    expect(() => blobEntriesBySha256('["x"]')).toThrow(
      /^blobs must be the record's svc\.blobs entries \(an array of JSON strings or parsed entries; \[\] when it lists none\); got "\[\\"x\\"\]"$/,
    );
    expect(() => blobEntriesBySha256(undefined)).toThrow(/got undefined$/);
  });
});
