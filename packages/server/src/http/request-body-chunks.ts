/**
 * A request body as a stream of chunks, for bodies too large to hold in memory: from Node's
 * `IncomingMessage` when served by `@hono/node-server` (the body not yet read), else from the
 * Fetch `Request` (in-process requests).
 * @module
 */
import type { IncomingMessage } from 'node:http';

async function* empty(): AsyncGenerator<Uint8Array> {}

/**
 * The chunks of the request body, read as they are consumed (back-pressure reaches the client).
 * Leaving the iteration early stops reading without destroying the connection, so an error can
 * still be answered.
 */
export function requestBodyChunks(request: Request, incoming?: IncomingMessage): AsyncIterable<Uint8Array> {
  if (incoming !== undefined && !incoming.readableDidRead) {
    return { [Symbol.asyncIterator]: () => incoming.iterator({ destroyOnReturn: false }) };
  }
  return request.body ?? empty();
}
