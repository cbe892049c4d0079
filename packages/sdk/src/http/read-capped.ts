/**
 * Reads an undici response body up to a size cap.
 * @module
 */
import type { Dispatcher } from './undici.js';

/** Reads at most `maxBytes` of `body`; `undefined` when longer (the rest is discarded). */
export async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
