/**
 * A request body limit for small JSON routes, answering 413 in the service's error form.
 * @module
 */
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './api-error.js';

/** Refuses (413 `payload_too_large`) a body over `maxSize` bytes before it is read whole. */
export function jsonBodyLimit(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(
        413,
        'payload_too_large',
        `The request body exceeds ${maxSize} bytes; send only the documented fields.`,
      );
    },
  });
}
