/**
 * Reads a request body within a size limit: from Node's `IncomingMessage` (when served by
 * `@hono/node-server`), or from the Fetch `Request` stream otherwise (in-process requests). The
 * body is admitted against the request's body account when the body admission middleware opened
 * one, its bytes are gathered as they arrive (`BodyBuffer`), and the result owns its whole
 * `ArrayBuffer`, so it can be transferred to another thread without a copy. A body refused or
 * abandoned midway is freed at once.
 *
 * The ingest benchmark's baseline reads bodies with this same code (with no body account).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { type BodyAccount, bodyAccountOf } from './body-admission.js';
import { BodyBuffer } from './body-buffer.js';
import { RequestAbortedError } from './request-aborted-error.js';

/** Thrown when the body is larger than the limit; nothing more of it is read. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** The `Content-Length` a request declares, or `undefined` when it declares none (or not a number). */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Admits a body before reading it: refuses one declared larger than the limit, or larger than the
 * budget's room now (503), and charges a declared length whole, so that an admitted body is never
 * refused halfway for lack of memory. A body without a declared length is charged as it grows.
 */
function admitDeclared(declared: number | undefined, limit: number, account: BodyAccount | undefined): void {
  if (declared === undefined) return;
  if (declared > limit) throw new BodyTooLargeError();
  account?.charge(declared);
}

function readIncoming(
  incoming: IncomingMessage,
  limit: number,
  account: BodyAccount | undefined,
): Promise<Buffer> {
  const declared = declaredLength(incoming.headers['content-length']);
  try {
    admitDeclared(declared, limit, account);
  } catch (error) {
    return Promise.reject(error);
  }
  if (incoming.destroyed) {
    // The client went away before the handler came to the body: no event would ever come.
    account?.refund(declared ?? 0);
    return Promise.reject(new RequestAbortedError({ cause: incoming.errored ?? undefined }));
  }
  return new Promise((resolve, reject) => {
    const body = new BodyBuffer(declared ?? limit, account, declared);
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const fail = (error: Error) => {
      cleanup();
      body.discard();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      account?.count(chunk.length);
      try {
        if (body.wouldOverflow(chunk.length)) throw new BodyTooLargeError();
        body.append(chunk);
      } catch (error) {
        // Refused midway: the rest of the body is read and dropped, so the answer can be sent.
        fail(error as Error);
        incoming.resume();
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(body.take());
    };
    const onError = (error: Error) => fail(new RequestAbortedError({ cause: error }));
    const onAborted = () => fail(new RequestAbortedError());
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.once('aborted', onAborted);
  });
}

async function readStream(
  request: Request,
  limit: number,
  account: BodyAccount | undefined,
): Promise<Buffer> {
  const declared = declaredLength(request.headers.get('content-length'));
  admitDeclared(declared, limit, account);
  const body = new BodyBuffer(declared ?? limit, account, declared);
  if (request.body === null) return body.take();
  const reader = request.body.getReader();
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (error) {
        throw new RequestAbortedError({ cause: error });
      }
      const { done, value } = step;
      if (done) return body.take();
      account?.count(value.byteLength);
      if (body.wouldOverflow(value.byteLength)) throw new BodyTooLargeError();
      body.append(value);
    }
  } catch (error) {
    body.discard();
    await reader.cancel().catch(() => undefined); // the stream may be errored already
    throw error;
  }
}

/**
 * Reads the whole body of a request, from `incoming` when given (and not yet read), else from
 * `request`. Rejects with {@link BodyTooLargeError} past `limit` bytes, with an `ApiError` 503
 * (`Retry-After`) when the process's body budget has no room for it, and with
 * {@link RequestAbortedError} when the client goes away first.
 */
export function readRequestBody(
  request: Request,
  incoming: IncomingMessage | undefined,
  limit: number,
): Promise<Buffer> {
  const account = bodyAccountOf(request, incoming);
  return incoming !== undefined && !incoming.readableDidRead
    ? readIncoming(incoming, limit, account)
    : readStream(request, limit, account);
}
