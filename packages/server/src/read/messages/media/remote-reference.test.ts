import { describe, expect, it } from 'vitest';
import { fileIdReference, mediaReference, uriReference } from './remote-reference.js';

describe('remote references', () => {
  it('reads web URLs, object-store URIs and other schemes as uri references', () => {
    expect(uriReference('https://a.example/x.png', { mediaType: 'IMAGE/PNG' })).toEqual({
      kind: 'uri',
      uri: 'https://a.example/x.png',
      objectStore: false,
      mediaType: 'image/png',
    });
    for (const uri of ['gs://b/o', 's3://b/o', 'S3A://b/o', 'abfss://c@a.dfs.core.windows.net/p']) {
      expect(uriReference(uri)).toMatchObject({ kind: 'uri', objectStore: true });
    }
    expect(uriReference('file:///srv/report.pdf')).toMatchObject({ kind: 'uri', objectStore: false });
    for (const text of ['not a url', 'C:\\files\\a.png', 'relative/path.png', ''])
      expect(uriReference(text)).toBeUndefined();
  });

  it('reads Gemini Files API URIs and provider file IDs as file IDs', () => {
    expect(uriReference('https://generativelanguage.googleapis.com/v1beta/files/abc-123')).toEqual({
      kind: 'file_id',
      fileId: 'files/abc-123',
      provider: 'gemini',
      uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123',
    });
    expect(fileIdReference('file-abc')).toEqual({ kind: 'file_id', fileId: 'file-abc', provider: 'openai' });
    expect(fileIdReference('file_abc')).toEqual({
      kind: 'file_id',
      fileId: 'file_abc',
      provider: 'anthropic',
    });
    expect(fileIdReference('doc-7')).toEqual({ kind: 'file_id', fileId: 'doc-7' });
  });

  it('reads external platform media references with their ID, platform and media type', () => {
    const reference = '@@@langfuseMedia:type=audio/wav|id=m-1|source=bytes@@@';
    expect(mediaReference(reference)).toEqual({
      kind: 'media_reference',
      id: 'm-1',
      platform: 'Langfuse',
      mediaType: 'audio/wav',
      reference,
    });
    expect(mediaReference('@@@otherMedia:id=7@@@')).toMatchObject({ id: '7', platform: 'other' });
    for (const text of [
      '@@@langfuseMedia:type=image/png@@@',
      'x @@@langfuseMedia:id=1@@@',
      '@@@langfuseMedia:id=1@@',
    ]) {
      expect(mediaReference(text)).toBeUndefined();
    }
  });
});
