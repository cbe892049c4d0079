import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MediaLinks } from './media-links.js';

const ORIGIN = 'http://127.0.0.1:4318';
const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

function queryOf(url: string): URLSearchParams {
  return new URL(url).searchParams;
}

describe('MediaLinks', () => {
  let now = 1_000_000;
  const secret = randomBytes(32);
  const links = new MediaLinks(secret, () => now);

  it('signs an upload link valid until its expiry, for that reservation only', () => {
    const url = links.uploadUrl(ORIGIN, 'r-1', 2_000_000);
    expect(url).toMatch(
      /^http:\/\/127\.0\.0\.1:4318\/api\/v1\/blobs\/uploads\/r-1\?expires=2000000&signature=[\w-]{43}$/,
    );
    now = 1_999_999;
    expect(links.checkUpload('r-1', queryOf(url))).toBe('valid');
    expect(links.checkUpload('r-2', queryOf(url))).toBe('forbidden');
    now = 2_000_000;
    expect(links.checkUpload('r-1', queryOf(url))).toBe('expired');
  });

  it('refuses links signed with another key, or whose fields were changed', () => {
    now = 0;
    const url = links.uploadUrl(ORIGIN, 'r-1', 10);
    expect(new MediaLinks(randomBytes(32), () => 0).checkUpload('r-1', queryOf(url))).toBe('forbidden');
    const query = queryOf(url);
    query.set('expires', '11');
    expect(links.checkUpload('r-1', query)).toBe('forbidden');
    for (const broken of ['', 'abc', `${query.get('signature')}A`, 'A'.repeat(43)]) {
      const q = queryOf(url);
      q.set('signature', broken);
      expect(links.checkUpload('r-1', q)).toBe('forbidden');
    }
    const noExpiry = queryOf(url);
    noExpiry.delete('expires');
    expect(links.checkUpload('r-1', noExpiry)).toBe('forbidden');
  });

  it('signs the trace and the file name into a download link', () => {
    now = 0;
    const url = links.downloadUrl(ORIGIN, { sha256: SHA, traceId: TRACE, name: 'a b&c.png' }, 100);
    const query = queryOf(url);
    expect(links.checkDownload(SHA, query)).toEqual({
      check: 'valid',
      grant: { sha256: SHA, traceId: TRACE, name: 'a b&c.png' },
    });
    for (const [field, value] of [
      ['name', 'other.png'],
      ['traceId', `${'0'.repeat(31)}1`],
    ] as const) {
      const q = queryOf(url);
      q.set(field, value);
      expect(links.checkDownload(SHA, q).check).toBe('forbidden');
    }
    const unnamed = queryOf(url);
    unnamed.delete('name');
    expect(links.checkDownload(SHA, unnamed).check).toBe('forbidden');
    expect(links.checkDownload(SHA.replace('e', 'f'), query).check).toBe('forbidden');
  });

  it('keeps a link without a name apart from one with an empty name', () => {
    now = 0;
    const url = links.downloadUrl(ORIGIN, { sha256: SHA, traceId: TRACE, name: null }, 100);
    expect(queryOf(url).has('name')).toBe(false);
    expect(links.checkDownload(SHA, queryOf(url)).grant.name).toBeNull();
    const q = queryOf(url);
    q.set('name', '');
    expect(links.checkDownload(SHA, q).check).toBe('forbidden');
  });

  it('never accepts an upload signature as a download signature', () => {
    now = 0;
    const upload = queryOf(links.uploadUrl(ORIGIN, SHA, 100));
    upload.set('traceId', TRACE);
    expect(links.checkDownload(SHA, upload).check).toBe('forbidden');
  });
});
