/**
 * Runs the target once, until it settles or its deadline: at the deadline its signal is aborted
 * and the handler goes on without waiting (whatever the target returns later is ignored).
 * @module
 */
import type { ManagedTarget, ManagedTargetInput } from './managed-types.js';
import { outcomeOfResult, outcomeOfThrow, outcomeOfTimeout, type PlannedOutcome } from './target-result.js';

/** Runs `target` with `input` (whose signal `controller` aborts) until `deadline` (ms since the epoch). */
export async function runTarget(
  target: ManagedTarget,
  input: Omit<ManagedTargetInput, 'signal'>,
  controller: AbortController,
  deadline: number,
  maxExecutionMillis: number,
): Promise<PlannedOutcome> {
  const left = deadline - Date.now();
  if (left <= 0) return outcomeOfTimeout(maxExecutionMillis);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<{ kind: 'timeout' }>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(
        new DOMException(`The execution ran out of its ${maxExecutionMillis} ms.`, 'TimeoutError'),
      );
      resolve({ kind: 'timeout' });
    }, left);
  });
  const running = (async () => target({ ...input, signal: controller.signal }))().then(
    (value) => ({ kind: 'returned' as const, value }),
    (error: unknown) => ({ kind: 'threw' as const, error }),
  );
  const first = await Promise.race([running, expired]);
  clearTimeout(timer);
  if (first.kind === 'timeout') return outcomeOfTimeout(maxExecutionMillis);
  if (first.kind === 'threw') {
    // A target that gave up because its signal fired ran out of time.
    return controller.signal.aborted ? outcomeOfTimeout(maxExecutionMillis) : outcomeOfThrow(first.error);
  }
  return outcomeOfResult(first.value);
}
