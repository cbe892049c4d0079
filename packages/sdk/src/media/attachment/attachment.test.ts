import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_DATA_BYTES } from '../media-types.js';
import { Attachment, attachmentFile } from './attachment.js';

const png = readFileSync(new URL('../../../../../fixtures/media/dot.png', import.meta.url));
const pngSha = createHash('sha256').update(png).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'svc-attachment-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Attachment', () => {
  it('records bytes, base64 and a data: URL of the same file as the same digest part', () => {
    const forms = [
      new Attachment({ data: png, contentType: 'image/png', name: 'dot.png' }),
      new Attachment({ data: new Uint8Array(png), contentType: 'IMAGE/PNG', name: 'dot.png' }),
      new Attachment({ data: png.toString('base64'), contentType: 'image/png', name: 'dot.png' }),
      new Attachment({ data: png.toString('base64url'), contentType: 'image/png', name: 'dot.png' }),
      new Attachment({ data: `data:image/png;base64,${png.toString('base64')}`, name: 'dot.png' }),
    ];
    for (const attachment of forms) {
      expect(attachment.valid).toBe(true);
      expect(JSON.parse(JSON.stringify({ file: attachment }))).toEqual({
        file: {
          type: 'blob',
          mime_type: 'image/png',
          modality: 'image',
          sha256: pngSha,
          size: png.length,
          name: 'dot.png',
        },
      });
    }
  });

  it('reads a percent-encoded data: URL, and a given content type wins over the URL', () => {
    const text = new Attachment({
      data: 'data:text/plain;charset=utf-8,h%C3%A9llo',
      contentType: 'text/markdown',
    });
    expect(text.toJSON()).toEqual({
      type: 'blob',
      mime_type: 'text/markdown',
      modality: 'document',
      sha256: createHash('sha256').update('héllo').digest('hex'),
      size: 6,
    });
  });

  it('reads a small file at creation and hashes a large one from disk, streaming it at upload', () => {
    const small = join(dir, 'small.png');
    writeFileSync(small, png);
    const fromSmall = new Attachment({ path: small, contentType: 'image/png' });
    expect(fromSmall.sha256).toBe(pngSha);
    expect(attachmentFile(fromSmall, 'input.value#/file')).toMatchObject({
      key: 'input.value#/file',
      sha256: pngSha,
      size: png.length,
      contentType: 'image/png',
      modality: 'image',
      source: { kind: 'bytes' },
    });

    const large = join(dir, 'large.bin');
    const bytes = Buffer.alloc(MAX_DATA_BYTES + 1, 7);
    writeFileSync(large, bytes);
    const fromLarge = new Attachment({
      path: large,
      contentType: 'application/octet-stream',
      name: 'large.bin',
    });
    expect(fromLarge.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(fromLarge.size).toBe(bytes.length);
    expect(attachmentFile(fromLarge, 'k#')?.source).toMatchObject({
      kind: 'path',
      path: large,
      size: bytes.length,
    });
  });

  it.each([
    [{ contentType: 'image/png' }, 'attachment needs exactly one of data or path'],
    [{ data: png, path: '/tmp/x', contentType: 'image/png' }, 'attachment needs exactly one of data or path'],
    [{ data: 42, contentType: 'image/png' }, 'the attachment data is not bytes, base64 or a data: URL'],
    [
      { data: 'not base64!', contentType: 'image/png' },
      'the attachment data is not bytes, base64 or a data: URL',
    ],
    [{ data: 'QUJDR', contentType: 'image/png' }, 'the attachment data is not bytes, base64 or a data: URL'],
    [
      { data: new Uint8Array(MAX_DATA_BYTES + 1), contentType: 'image/png' },
      'the attachment data is over 25 MiB',
    ],
    [
      { data: 'A'.repeat(Math.ceil(((MAX_DATA_BYTES + 3) * 4) / 3)), contentType: 'image/png' },
      'the attachment data is over 25 MiB',
    ],
    [
      { path: '/nonexistent/svc-attachment.png', contentType: 'image/png' },
      'the attachment file could not be read (ENOENT)',
    ],
    [{ path: '/tmp', contentType: 'image/png' }, 'the attachment path is not a regular file'],
    [{ path: '', contentType: 'image/png' }, 'the attachment path must be a nonempty string'],
    [{ data: png }, 'the attachment has no content type'],
    [{ data: png, contentType: 'png' }, 'the attachment content type is not a valid media type'],
    [
      { data: png, contentType: 'image/png; charset' },
      'the attachment content type is not a valid media type',
    ],
  ])('is recorded as null when invalid, never throwing (%#)', (options, problem) => {
    const attachment = new Attachment(options as never);
    expect(attachment.valid).toBe(false);
    expect(attachment.problem).toBe(problem);
    expect(attachment.sha256).toBeUndefined();
    expect(JSON.stringify({ a: attachment })).toBe('{"a":null}');
    expect(attachmentFile(attachment, 'k#')).toBeUndefined();
  });

  it('never throws on arguments that are not options at all', () => {
    for (const bad of [undefined, null, 'image.png', 12]) {
      const attachment = new Attachment(bad as never);
      expect(attachment.problem).toBe('attachment needs exactly one of data or path');
    }
  });

  it('omits an invalid name alone, keeping the file', () => {
    for (const name of ['', '   ', 'a\u0000b', 'x'.repeat(257), '\ud800', 7]) {
      const attachment = new Attachment({ data: png, contentType: 'image/png', name: name as string });
      expect(attachment.valid).toBe(true);
      expect(attachment.name).toBeUndefined();
      expect(attachment.nameProblem).toMatch(/^an attachment name was omitted/);
      expect(attachment.toJSON()).not.toHaveProperty('name');
    }
    expect(new Attachment({ data: png, contentType: 'image/png', name: 'x'.repeat(256) }).name).toHaveLength(
      256,
    );
  });

  it('keeps media type parameters, normalizing type and subtype', () => {
    const pcm = new Attachment({ data: new Uint8Array(4), contentType: 'Audio/PCM; rate=24000;channels=1' });
    expect(pcm.contentType).toBe('audio/pcm;rate=24000;channels=1');
    expect(pcm.toJSON()).toMatchObject({ mime_type: 'audio/pcm;rate=24000;channels=1', modality: 'audio' });
  });

  it('is recognized across copies by its brand, not by instanceof', () => {
    const attachment = new Attachment({ data: png, contentType: 'image/png' });
    expect(Attachment.isInstance(attachment)).toBe(true);
    expect(Attachment.isInstance({ ...attachment })).toBe(true);
    expect(Attachment.isInstance({ sha256: pngSha })).toBe(false);
    expect(Attachment.isInstance(null)).toBe(false);
  });
});
