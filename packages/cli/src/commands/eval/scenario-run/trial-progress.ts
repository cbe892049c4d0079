/**
 * A trial's end on the progress display: `<case>` (or `<case>#<trial>` with several trials), its
 * state and the failed checks' names or the error's type.
 * @module
 */
import type { Progress } from '../progress.js';
import type { EndedTrial } from './run-trials.js';

/** The `onTrialEnd` of `runTrials` that shows each trial ended in this process on `progress`. */
export function trialProgress(progress: Progress, trials: number) {
  return (ended: EndedTrial, resumed: boolean): void => {
    if (resumed) return; // counted as done when the display started
    const label = trials > 1 ? `${ended.caseKey}#${ended.trial}` : ended.caseKey;
    switch (ended.outcome) {
      case 'passed':
        progress.caseEnded(label, 'passed');
        return;
      case 'failed':
        progress.caseEnded(label, 'failed', ended.failedChecks.join(', '));
        return;
      case 'errored':
        progress.caseEnded(label, 'errored', ended.error?.type ?? '');
        return;
      default:
        progress.caseEnded(
          label,
          'done',
          ended.outcome === 'pending' ? 'checks pending' : 'sealed elsewhere',
        );
    }
  };
}
