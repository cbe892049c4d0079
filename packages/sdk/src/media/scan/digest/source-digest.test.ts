import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestSource } from './source-digest.js';

describe('digestSource', () => {
  it('digests bytes, base64 ranges and text the same way for the same bytes', () => {
    const bytes = Buffer.from('héllo');
    const expected = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    const text = `--${bytes.toString('base64')}--`;
    expect(digestSource({ kind: 'bytes', bytes })).toEqual(expected);
    expect(digestSource({ kind: 'base64', text, start: 2, end: text.length - 2 })).toEqual(expected);
    expect(digestSource({ kind: 'utf8', text: 'héllo' })).toEqual(expected);
  });

  it('has no digest for files on disk or text that is not base64', () => {
    expect(digestSource({ kind: 'path', path: '/tmp/x', size: 1, mtimeMs: 0 })).toBeUndefined();
    expect(digestSource({ kind: 'base64', text: '!!!!', start: 0, end: 4 })).toBeUndefined();
  });
});
