/**
 * Test support: preloaded into the `svc` executable (`node --import`) by crash tests. At the step
 * and case named by `EVAL_TEST_PAUSE_AT` (`<step>:<case key>`, steps of `eval-hooks.ts`), it writes
 * `<EVAL_TEST_MARKERS>/paused-<step>-<case key>` and never returns: the test, seeing the marker,
 * kills the process there with SIGKILL. Deterministic: the process waits for its killer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [pauseStep, pauseKey] = (process.env.EVAL_TEST_PAUSE_AT ?? '').split(':');

globalThis[Symbol.for('svc-run.cli.eval-hooks')] = {
  step(step, caseKey) {
    if (step !== pauseStep || caseKey !== pauseKey) return undefined;
    writeFileSync(join(process.env.EVAL_TEST_MARKERS, `paused-${step}-${caseKey}`), String(process.pid));
    return new Promise(() => undefined);
  },
};
