/**
 * Reading a whole body of bounded size from any stream of bytes: an undici response body, a Fetch
 * `ReadableStream`, Node's `IncomingMessage`.
 * @module
 */

/**
 * Reads `source` to its end when it holds at most `maxBytes`; resolves `undefined` as soon as it
 * holds more, and stops reading then (leaving the iteration destroys a Node stream and cancels a
 * Fetch stream, so the rest is never received). Rejects with the stream's error when it fails
 * first (a connection lost mid-body is not a whole body).
 *
 * @example
 * ```ts
 * const bytes = await readCapped(response.body, 64 * 1024);
 * if (bytes === undefined) throw new Error('the answer is over 64 KiB');
 * ```
 */
export async function readCapped(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
