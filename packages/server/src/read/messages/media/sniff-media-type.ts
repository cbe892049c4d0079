/**
 * Recognizes common file formats by their first bytes, for parts that do not declare a media
 * type (an AI SDK image as bare base64, an assistant message's audio). The same signatures as the
 * SDK's `sniff-media-type.ts`, so a file read inline gets the type the SDK would list.
 * @module
 */

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const SIGNATURES: readonly { offset: number; bytes: number[]; type: string }[] = [
  { offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: 'image/png' },
  { offset: 0, bytes: [0xff, 0xd8, 0xff], type: 'image/jpeg' },
  { offset: 0, bytes: ascii('GIF87a'), type: 'image/gif' },
  { offset: 0, bytes: ascii('GIF89a'), type: 'image/gif' },
  { offset: 8, bytes: ascii('WEBP'), type: 'image/webp' },
  { offset: 0, bytes: ascii('%PDF-'), type: 'application/pdf' },
  { offset: 8, bytes: ascii('WAVE'), type: 'audio/wav' },
  { offset: 0, bytes: ascii('ID3'), type: 'audio/mpeg' },
  { offset: 0, bytes: ascii('fLaC'), type: 'audio/flac' },
  { offset: 0, bytes: ascii('OggS'), type: 'audio/ogg' },
  { offset: 4, bytes: ascii('ftyp'), type: 'video/mp4' },
  { offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3], type: 'video/webm' },
];
const RIFF = ascii('RIFF');

function startsWith(head: Uint8Array, offset: number, bytes: readonly number[]): boolean {
  if (head.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false;
  return true;
}

/** The media type `head` (a file's first bytes, 16 are enough) starts like, or `undefined`. */
export function sniffMediaType(head: Uint8Array): string | undefined {
  for (const signature of SIGNATURES) {
    if (signature.offset === 8 && !startsWith(head, 0, RIFF)) continue;
    if (startsWith(head, signature.offset, signature.bytes)) return signature.type;
  }
  // MPEG audio frame sync (MP3) and ADTS (AAC) both start with 12 set bits.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf0) === 0xf0) {
    return (head[1]! & 0x06) === 0 ? 'audio/aac' : 'audio/mpeg';
  }
  return undefined;
}
