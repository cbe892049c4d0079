/**
 * When a built-in scorer has nothing to score: the cases every built-in skips.
 * @module
 */

import type { ScoreContext, SkippedScore } from './score.js';

/**
 * The `skipped` Score of a case a built-in cannot score, or `undefined` when it can: an execution
 * that did not succeed, a case without output, and (when the built-in compares with a reference)
 * a case without an expected value. A present `null` output or expected value is scored.
 */
export function builtinSkip(context: ScoreContext, needsExpected: boolean): SkippedScore | undefined {
  if (context.executionState !== undefined && context.executionState !== 'succeeded') {
    return skipped(`The execution ended in state ${context.executionState}, so there is no output to score.`);
  }
  if (!context.hasOutput) return skipped('The case has no output to score.');
  if (needsExpected && !context.hasExpected)
    return skipped('The case has no expected value to compare with.');
  return undefined;
}

function skipped(explanation: string): SkippedScore {
  return { status: 'skipped', explanation };
}
