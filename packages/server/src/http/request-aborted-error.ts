/**
 * The client went away before its request body was received whole: a connection closed or reset
 * mid-body. Not a failure of the server: the answer has nobody to go to, and it is not logged as
 * an error (the request log records the request as closed by the client).
 */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';

  constructor(options?: ErrorOptions) {
    super('The client closed the connection before the request body was received whole.', options);
  }
}
