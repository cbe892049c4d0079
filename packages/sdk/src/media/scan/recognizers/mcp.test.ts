import { describe, expect, it } from 'vitest';
import { findDigestHolders } from '../find-digest-holders.js';
import { scanAttribute } from '../scan-attribute.js';
import {
  digestMembers,
  PDF_BYTES,
  PNG_BASE64,
  PNG_BYTES,
  recordingDecide,
  sha256Hex,
  WAV_BYTES,
} from '../test-support.js';
import { lastUriSegment } from './mcp.js';

const WAV = WAV_BYTES.toString('base64');
const PDF = PDF_BYTES.toString('base64');

describe('MCP tool results', () => {
  it('reads image, audio and blob resources; a resource is named by its URI; text resources stay', () => {
    const value =
      `{"content":[{"type":"text","text":"done"},` +
      `{"type":"image","data":"${PNG_BASE64}","mimeType":"image/png"},` +
      `{"type":"audio","data":"${WAV}","mimeType":"audio/wav"},` +
      `{"type":"resource","resource":{"uri":"file:///reports/q3%20final.pdf","mimeType":"application/pdf","blob":"${PDF}"}},` +
      `{"type":"resource","resource":{"uri":"file:///notes.txt","mimeType":"text/plain","text":"notes"}},` +
      `{"type":"resource_link","uri":"file:///big.bin","name":"big.bin"}],"isError":false}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.tool.call.result', value, decide).value).toBe(
      `{"content":[{"type":"text","text":"done"},` +
        `{"type":"image",${digestMembers(PNG_BYTES)},"mimeType":"image/png"},` +
        `{"type":"audio",${digestMembers(WAV_BYTES)},"mimeType":"audio/wav"},` +
        `{"type":"resource","resource":{"uri":"file:///reports/q3%20final.pdf","mimeType":"application/pdf",${digestMembers(PDF_BYTES)}}},` +
        `{"type":"resource","resource":{"uri":"file:///notes.txt","mimeType":"text/plain","text":"notes"}},` +
        `{"type":"resource_link","uri":"file:///big.bin","name":"big.bin"}],"isError":false}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.name])).toEqual([
      ['gen_ai.tool.call.result#/content/1', 'image/png', undefined],
      ['gen_ai.tool.call.result#/content/2', 'audio/wav', undefined],
      ['gen_ai.tool.call.result#/content/3', 'application/pdf', 'q3 final.pdf'],
    ]);
  });

  it('names resources by the last URI segment', () => {
    expect(lastUriSegment('file:///a/b/report.pdf?x=1#page=2')).toBe('report.pdf');
    expect(lastUriSegment('https://example.com/dir/')).toBeUndefined();
    expect(lastUriSegment('urn:isbn:123')).toBeUndefined();
    expect(lastUriSegment('file:///bad%E0.txt')).toBe('bad%E0.txt');
  });

  it('restores bare base64', () => {
    const holders = findDigestHolders({
      content: [
        { type: 'image', mimeType: 'image/png', sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length },
        {
          type: 'resource',
          resource: { uri: 'file:///q3.pdf', sha256: sha256Hex(PDF_BYTES), size: PDF_BYTES.length },
        },
      ],
    });
    expect(holders.map((holder) => holder.form)).toEqual(['mcp.image', 'mcp.resource']);
    expect(holders[0]!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PNG_BASE64,
    });
    expect(holders[1]!.restore(PDF_BYTES, 'application/pdf')).toEqual({
      type: 'resource',
      resource: { uri: 'file:///q3.pdf', blob: PDF },
    });
  });
});
