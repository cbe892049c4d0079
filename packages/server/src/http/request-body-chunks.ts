/**
 * A request body as a stream of chunks, for bodies too large to hold in memory: from Node's
 * `IncomingMessage` when served by `@hono/node-server` (the body not yet read), else from the
 * Fetch `Request` (in-process requests). One chunk is held at a time (the next is read when the
 * consumer asks for it), so these bodies are not charged to the body budget; their bytes are
 * counted in the request's body account for the request log.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { type BodyAccount, bodyAccountOf } from './body-admission.js';
import { RequestAbortedError } from './request-aborted-error.js';

async function* empty(): AsyncGenerator<Uint8Array> {}

/** The chunks of `source`, counted; a failure to read one is the client's ({@link RequestAbortedError}). */
async function* received(
  source: AsyncIterable<Uint8Array>,
  account: BodyAccount | undefined,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of source) {
      account?.count(chunk.byteLength);
      yield chunk;
    }
  } catch (error) {
    throw new RequestAbortedError({ cause: error });
  }
}

/**
 * The chunks of the request body, read as they are consumed (back-pressure reaches the client).
 * Leaving the iteration early stops reading without destroying the connection, so an error can
 * still be answered. A connection lost midway ends the iteration with {@link RequestAbortedError}.
 */
export function requestBodyChunks(request: Request, incoming?: IncomingMessage): AsyncIterable<Uint8Array> {
  const account = bodyAccountOf(request, incoming);
  if (incoming !== undefined && !incoming.readableDidRead) {
    return received({ [Symbol.asyncIterator]: () => incoming.iterator({ destroyOnReturn: false }) }, account);
  }
  return request.body === null ? empty() : received(request.body, account);
}
