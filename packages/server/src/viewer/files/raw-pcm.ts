/**
 * Raw 16-bit PCM played in the browser (spec "Limits": raw PCM playback): a file listed as
 * `audio/pcm;rate=<rate>;channels=<n>` (also `audio/x-pcm`, and `audio/L16`, which RFC 2586
 * defines big-endian) with a whole rate from 8000 to 192000 and 1 or 2 channels plays; without a
 * valid rate it is a download only. Browsers play no raw PCM, so the viewer serves it as WAV: a
 * 44-byte header, then the samples as they are (little-endian; `audio/L16` swapped to it).
 * @module
 */

/** How raw PCM samples are laid out. */
export interface PcmFormat {
  rate: number;
  channels: 1 | 2;
  /** `audio/L16` is big-endian; `audio/pcm` and `audio/x-pcm` little-endian. */
  bigEndian: boolean;
}

const PCM_TYPES = new Set(['audio/pcm', 'audio/x-pcm', 'audio/l16']);

/** Whether `contentType` names raw PCM at all (playable or not). */
export function isRawPcm(contentType: string): boolean {
  return PCM_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());
}

/** The layout of a playable raw PCM type, or `undefined` (not raw PCM, or no valid rate or channels). */
export function pcmFormat(contentType: string): PcmFormat | undefined {
  const [essence, ...params] = contentType.split(';').map((p) => p.trim());
  if (!isRawPcm(essence ?? '')) return undefined;
  const values = new Map<string, string>();
  for (const param of params) {
    const at = param.indexOf('=');
    if (at > 0)
      values.set(
        param.slice(0, at).trim().toLowerCase(),
        param
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  const rateText = values.get('rate');
  if (rateText === undefined || !/^\d{4,6}$/.test(rateText)) return undefined;
  const rate = Number(rateText);
  if (rate < 8000 || rate > 192_000) return undefined;
  const channelsText = values.get('channels') ?? '1';
  if (channelsText !== '1' && channelsText !== '2') return undefined;
  return { rate, channels: channelsText === '1' ? 1 : 2, bigEndian: essence!.toLowerCase() === 'audio/l16' };
}

/** Bytes of one frame (a sample of every channel, 16 bits each). */
export function frameBytes(format: PcmFormat): number {
  return 2 * format.channels;
}

/**
 * The 44-byte header of a canonical WAV file (RIFF `WAVE`, a `fmt ` chunk of PCM, then the `data`
 * chunk's header) for `dataBytes` bytes of 16-bit samples. Written by hand: it is 44 fixed bytes
 * of a format that has not changed since 1991, and the npm packages that write WAV either build
 * the whole file in memory (`wavefile`) or are unmaintained stream wrappers (`wav`); the viewer
 * streams the samples after it straight from storage.
 */
export function wavHeader(format: PcmFormat, dataBytes: number): Uint8Array {
  const header = Buffer.alloc(44);
  const blockAlign = frameBytes(format);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4); // the RIFF chunk: everything after these 8 bytes
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // size of the PCM `fmt ` chunk
  header.writeUInt16LE(1, 20); // format 1: integer PCM
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.rate, 24);
  header.writeUInt32LE(format.rate * blockAlign, 28); // bytes per second
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * The WAV stream of `size` bytes of raw PCM read from `source`: the header, then whole frames
 * only (a trailing partial frame is left out: a WAV holds whole frames), byte pairs swapped for
 * big-endian `audio/L16`.
 */
export function wavStream(
  format: PcmFormat,
  size: number,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): {
  length: number;
  body: ReadableStream<Uint8Array>;
} {
  const dataBytes = size - (size % frameBytes(format));
  const header = wavHeader(format, dataBytes);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield header;
    let left = dataBytes;
    let carry: number | undefined; // an odd byte of a sample split across chunks (L16 only)
    for await (const chunk of source) {
      if (left <= 0) break;
      let bytes = chunk.subarray(0, Math.min(chunk.length, left));
      left -= bytes.length;
      if (format.bigEndian) {
        const joined =
          carry === undefined ? Buffer.from(bytes) : Buffer.concat([Buffer.from([carry]), bytes]);
        const even = joined.length - (joined.length % 2);
        carry = even < joined.length ? joined[even] : undefined;
        bytes = Buffer.from(joined.subarray(0, even)).swap16();
      }
      if (bytes.length > 0) yield bytes;
    }
  }
  const iterator = chunks();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { length: 44 + dataBytes, body };
}
