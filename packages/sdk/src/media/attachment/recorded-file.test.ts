import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileEventKey, recordedFile } from './recorded-file.js';

const pdf = readFileSync(new URL('../../../../../fixtures/media/report.pdf', import.meta.url));
const pdfSha = createHash('sha256').update(pdf).digest('hex');

describe('recordedFile', () => {
  it('gives the svc.file event attributes, and the file to upload only with upload: true', () => {
    const without = recordedFile({
      role: 'input',
      data: pdf,
      mediaType: 'application/pdf',
      name: 'report.pdf',
    });
    expect(without).toEqual({
      attributes: {
        'svc.file.sha256': pdfSha,
        'svc.file.size': pdf.length,
        'svc.file.media_type': 'application/pdf',
        'svc.file.role': 'input',
        'svc.file.name': 'report.pdf',
      },
      upload: undefined,
      problems: [],
    });
    const withUpload = recordedFile({
      role: 'output',
      data: pdf,
      mediaType: 'application/pdf',
      upload: true,
    });
    expect(withUpload).toMatchObject({
      attributes: { 'svc.file.role': 'output' },
      upload: {
        key: `event:svc.file:${pdfSha}`,
        sha256: pdfSha,
        size: pdf.length,
        contentType: 'application/pdf',
        modality: 'document',
        source: { kind: 'bytes' },
      },
    });
    expect(fileEventKey(pdfSha)).toBe(`event:svc.file:${pdfSha}`);
  });

  it('omits an invalid name with a problem, and refuses invalid roles, media types and data', () => {
    expect(recordedFile({ role: 'input', data: pdf, mediaType: 'application/pdf', name: ' ' })).toMatchObject(
      {
        problems: [expect.stringMatching(/^a recorded file name was omitted/)],
      },
    );
    expect(recordedFile({ role: 'source' as never, data: pdf, mediaType: 'application/pdf' })).toEqual({
      problem: 'recordFile role must be input, attachment or output',
    });
    expect(recordedFile({ role: 'input', data: pdf, mediaType: 'pdf' })).toEqual({
      problem: 'recordFile mediaType is not a valid media type',
    });
    expect(recordedFile({ role: 'input', mediaType: 'application/pdf' })).toEqual({
      problem: 'recorded file needs exactly one of data or path',
    });
    expect(recordedFile(undefined as never)).toEqual({
      problem: 'recordFile needs an options object with role, mediaType and data or path',
    });
  });
});
