import { describe, expect, it } from 'vitest';
import type { ManagedTarget, ManagedTargetInput } from './managed-types.js';
import { runTarget } from './run-target.js';
import { outcomeOfTimeout } from './target-result.js';

const INPUT: Omit<ManagedTargetInput, 'signal'> = {
  inputs: { question: 'q' },
  config: {},
  files: [],
  execution: { executionId: 'e', experimentId: 'x', caseId: 'c', attempt: 1 },
  traceId: 'a'.repeat(32),
};

// The handler's own deadline, a real timer: each target here can never end by itself, so only the
// deadline ends the run, however slow the machine. (End to end, with the deadline expired by the
// test, in managed-handler.e2e.test.ts.)
describe('runTarget at its deadline (a real timer)', () => {
  it('aborts the signal and saves cancelled, whether or not the target heeds the signal', async () => {
    const reasons: string[] = [];
    const heeding: ManagedTarget = ({ signal }) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          reasons.push((signal.reason as Error).name);
          resolve({ output: 'too late' });
        });
      });
    const ignoring: ManagedTarget = () => new Promise(() => {});
    for (const target of [heeding, ignoring]) {
      const controller = new AbortController();
      expect(await runTarget(target, INPUT, controller, Date.now() + 100, 100)).toEqual(
        outcomeOfTimeout(100),
      );
      expect(controller.signal.aborted).toBe(true);
    }
    expect(reasons).toEqual(['TimeoutError']);
  });

  it('saves cancelled without running the target when no time is left', async () => {
    let ran = false;
    const target: ManagedTarget = async () => {
      ran = true;
      return { output: 'ran' };
    };
    expect(await runTarget(target, INPUT, new AbortController(), Date.now() - 1, 100)).toEqual(
      outcomeOfTimeout(100),
    );
    expect(ran).toBe(false);
  });
});
