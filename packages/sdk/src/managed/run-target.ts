/**
 * Runs the target once, until it settles or its deadline: at the deadline its signal is aborted
 * and the handler goes on without waiting (whatever the target returns later is ignored).
 * @module
 */
import type { ManagedTarget, ManagedTargetInput } from './managed-types.js';
import { outcomeOfResult, outcomeOfThrow, outcomeOfTimeout, type PlannedOutcome } from './target-result.js';

/**
 * Starts the deadline of a target's run: calls `expire` after `millis` unless the returned function
 * cancels it first. The handler uses {@link timerDeadline}; tests give their own, so that an
 * execution runs out of time when the test says, not when a loaded machine gets round to it.
 */
export type StartDeadline = (millis: number, expire: () => void) => () => void;

/** The {@link StartDeadline} of the handler: a timer. */
export const timerDeadline: StartDeadline = (millis, expire) => {
  const timer = setTimeout(expire, millis);
  return () => clearTimeout(timer);
};

/**
 * Runs `target` with `input` (whose signal `controller` aborts) until `deadline` (ms since the
 * epoch), the time left started by `startDeadline`.
 */
export async function runTarget(
  target: ManagedTarget,
  input: Omit<ManagedTargetInput, 'signal'>,
  controller: AbortController,
  deadline: number,
  maxExecutionMillis: number,
  startDeadline: StartDeadline = timerDeadline,
): Promise<PlannedOutcome> {
  const left = deadline - Date.now();
  if (left <= 0) return outcomeOfTimeout(maxExecutionMillis);
  let cancelDeadline: () => void = () => {};
  const expired = new Promise<{ kind: 'timeout' }>((resolve) => {
    cancelDeadline = startDeadline(left, () => {
      controller.abort(
        new DOMException(`The execution ran out of its ${maxExecutionMillis} ms.`, 'TimeoutError'),
      );
      resolve({ kind: 'timeout' });
    });
  });
  const running = (async () => target({ ...input, signal: controller.signal }))().then(
    (value) => ({ kind: 'returned' as const, value }),
    (error: unknown) => ({ kind: 'threw' as const, error }),
  );
  const first = await Promise.race([running, expired]);
  cancelDeadline();
  if (first.kind === 'timeout') return outcomeOfTimeout(maxExecutionMillis);
  if (first.kind === 'threw') {
    // A target that gave up because its signal fired ran out of time.
    return controller.signal.aborted ? outcomeOfTimeout(maxExecutionMillis) : outcomeOfThrow(first.error);
  }
  return outcomeOfResult(first.value);
}
