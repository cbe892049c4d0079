/**
 * Test support: preloaded into the `svc` executable (`node --import`) by crash tests. At the step
 * and case named by `EVAL_TEST_PAUSE_AT` (`<step>:<case key>`, steps of `eval-hooks.ts`), it writes
 * `<EVAL_TEST_MARKERS>/paused-<step>-<case key>` and never returns, keeping the process alive: the
 * test, seeing the marker, kills the process there with SIGKILL. Deterministic: the process waits
 * for its killer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [pauseStep, pauseKey] = (process.env.EVAL_TEST_PAUSE_AT ?? '').split(':');

globalThis[Symbol.for('svc-run.cli.eval-hooks')] = {
  step(step, caseKey) {
    if (step !== pauseStep || caseKey !== pauseKey) return undefined;
    writeFileSync(join(process.env.EVAL_TEST_MARKERS, `paused-${step}-${caseKey}`), String(process.pid));
    // Never settles, and a timer keeps the process alive until the kill: with nothing left to
    // do, Node would end it itself (exit code 13, an unsettled top-level await).
    return new Promise(() => setInterval(() => undefined, 60_000));
  },
};
