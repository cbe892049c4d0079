/** A request the store could not store; nothing of it was stored. Answered 503. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
}
