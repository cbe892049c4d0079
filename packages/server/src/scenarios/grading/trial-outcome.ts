/**
 * A trial's outcome from its checks, and pass^k over a case's trials.
 *
 * - `errored`: the agent failed (the sealed outcome is an error), or a required check could not
 *   be graded (a judge job ended in error, or the budget had none left).
 * - `failed`: a required check failed (whatever is still pending).
 * - `pending`: a required check is still being graded (a judge job queued or running).
 * - `passed`: every required check passed.
 * @module
 */

/** How one check of a trial stands. */
export type CheckStatus = 'passed' | 'failed' | 'pending' | 'error';

/** One check of a trial, by name: never what it expected. */
export interface CheckResult {
  name: string;
  kind: 'state' | 'tool_call' | 'output' | 'llm_judge';
  required: boolean;
  status: CheckStatus;
}

/** The outcome of a trial. */
export type TrialOutcome = 'passed' | 'failed' | 'pending' | 'errored';

/** The outcome of a sealed trial whose agent ended in `executionState`, from its checks. */
export function trialOutcome(
  executionState: 'succeeded' | 'error',
  checks: readonly CheckResult[],
): TrialOutcome {
  if (executionState === 'error') return 'errored';
  const required = checks.filter((check) => check.required);
  if (required.some((check) => check.status === 'failed')) return 'failed';
  if (required.some((check) => check.status === 'pending')) return 'pending';
  if (required.some((check) => check.status === 'error')) return 'errored';
  return 'passed';
}

function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass^k (τ-bench): the chance that `k` trials drawn from the `n` sealed ones all pass, estimated
 * as C(c, k) / C(n, k) from `c` passes. With exactly `k` trials it is 1 when all passed, else 0.
 * `null` while fewer than `k` trials are graded.
 */
export function passHatK(passed: number, graded: number, k: number): number | null {
  if (k < 1 || graded < k) return null;
  if (passed < k) return 0;
  return choose(passed, k) / choose(graded, k);
}
