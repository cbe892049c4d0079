/**
 * A runner in a child process, for the crash and resume tests: runs `runExperiment` (or `rescore`)
 * on the experiment (or run) given as its JSON argument, and kills itself with SIGKILL at the step
 * and case named by `killAt`: a runner step (see `runner-hooks.ts`), or `in-target` (inside the
 * target, after the invocation was logged). Every target invocation is appended to
 * `invocationLog` first. Prints one JSON line: `{ report }` or `{ error: { name, message, caseId?,
 * executionId? } }`. Not part of the package's public API.
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createSvc } from '../../../client/svc-client.js';
import { createEvaluationClient } from '../../client/evaluation-client.js';
import { rescoreWithHooks } from '../rescore.js';
import { runExperimentWithHooks } from '../run-experiment.js';
import type { RunnerHooks } from '../runner-hooks.js';
import type { RunnerReport } from '../runner-report.js';
import { answer, lengthScorer } from './question-cases.js';

/** The child's argument. */
export interface CrashChildInput {
  mode: 'experiment' | 'rescore';
  origin: string;
  readWriteKey: string;
  tracingKey: string;
  /** The experiment ID (`experiment`) or the run ID (`rescore`). */
  id: string;
  checkpointDirectory: string;
  invocationLog: string;
  concurrency: number;
  /** Where to die: a step and a case ID (an item ID for `rescore`). */
  killAt?: { step: string; id: string };
}

const input = JSON.parse(process.argv[2]!) as CrashChildInput;

function die(): Promise<never> {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined); // never reached: SIGKILL cannot be handled
}

const hooks: RunnerHooks = {
  step: async (step, id) => {
    if (input.killAt?.step === step && input.killAt.id === id) await die();
  },
};

// The longest timeouts: a loaded machine only makes a run slower, never a call's timeout.
const client = createEvaluationClient({
  apiKey: input.readWriteKey,
  baseUrl: input.origin,
  timeoutMillis: 60_000,
});
const common = {
  client,
  checkpointDirectory: input.checkpointDirectory,
  persistResultContent: true,
  scorers: [lengthScorer],
  concurrency: input.concurrency,
};

let outcome: { report: RunnerReport } | { error: Record<string, unknown> };
const svc = createSvc({
  apiKey: input.tracingKey,
  baseUrl: input.origin,
  serviceName: 'crash-child',
  captureContent: true,
  timeoutMillis: 60_000,
});
try {
  const report =
    input.mode === 'experiment'
      ? await runExperimentWithHooks(
          {
            ...common,
            svc,
            experimentId: input.id,
            traceEvidence: { mode: 'required' },
            target: async (inputs, { item }) => {
              appendFileSync(input.invocationLog, `${item.caseId}\n`);
              if (input.killAt?.step === 'in-target' && input.killAt.id === item.caseId) await die();
              return answer(inputs);
            },
          },
          hooks,
        )
      : await rescoreWithHooks({ ...common, runId: input.id }, hooks);
  outcome = { report };
} catch (error) {
  const { name, message, caseId, executionId } = error as Record<string, unknown>;
  outcome = { error: { name, message, caseId, executionId } };
} finally {
  await svc.shutdown().catch(() => undefined);
}
process.stdout.write(`${JSON.stringify(outcome)}\n`);
