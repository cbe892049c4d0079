/**
 * Reads a request body within a size limit, with as few copies as possible: from Node's
 * `IncomingMessage` (when served by `@hono/node-server`) into one buffer of the declared
 * `Content-Length`, or from the Fetch `Request` stream otherwise (in-process requests). The
 * result owns its whole `ArrayBuffer` when the length was declared, so it can be transferred to
 * another thread without a copy.
 *
 * Self-contained (Node built-ins and types only), so the ingest benchmark's baseline reads bodies
 * with this same code.
 * @module
 */
import type { IncomingMessage } from 'node:http';

/** Thrown when the body is larger than the limit; nothing more of it is read. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** The `Content-Length` a request declares, or `undefined` when it declares none (or not a number). */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

function readIncoming(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = declaredLength(incoming.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const body = declared !== undefined ? Buffer.allocUnsafeSlow(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > (body?.length ?? limit)) {
        cleanup();
        incoming.resume();
        reject(new BodyTooLargeError());
        return;
      }
      if (body) chunk.copy(body, size);
      else chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      cleanup();
      if (body) resolve(size === body.length ? body : body.subarray(0, size));
      else resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error('the client aborted the request'));
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.once('aborted', onAborted);
  });
}

async function readStream(request: Request, limit: number): Promise<Buffer> {
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== undefined && declared > limit) throw new BodyTooLargeError();
  if (request.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Reads the whole body of a request, from `incoming` when given (and not yet read), else from
 * `request`. Rejects with {@link BodyTooLargeError} past `limit` bytes.
 */
export function readRequestBody(
  request: Request,
  incoming: IncomingMessage | undefined,
  limit: number,
): Promise<Buffer> {
  return incoming !== undefined && !incoming.readableDidRead
    ? readIncoming(incoming, limit)
    : readStream(request, limit);
}
