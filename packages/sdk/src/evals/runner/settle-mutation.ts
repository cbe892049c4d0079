/**
 * A remote mutation made from its saved intent.
 * @module
 */
import type { SavedMutation } from './runner-records.js';
import { withTransientRetry } from './transient-retry.js';

/**
 * Makes the call whose intent (key and body) `mutation` holds, unless its result is saved already;
 * then sets the result and saves it with `save` (when given: a caller may save it with its next
 * write instead). Transient failures are retried with the same key and body.
 */
export async function settleMutation<TBody, TResult>(
  mutation: SavedMutation<TBody, TResult>,
  save: (() => Promise<void>) | undefined,
  call: (key: string, body: TBody) => Promise<TResult>,
  afterCall?: () => Promise<void>,
): Promise<TResult> {
  if (mutation.result !== undefined) return mutation.result;
  const result = await withTransientRetry(() => call(mutation.key, mutation.body));
  await afterCall?.();
  mutation.result = result;
  await save?.();
  return result;
}
