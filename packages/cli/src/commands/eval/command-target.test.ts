/**
 * The command target of `svc eval`, in-process: a command that fails or writes nothing rejects
 * with the case's error (its type the execution's error type), and that rejection is the target's
 * only one — none is left unobserved while the case's directory is removed (an unhandled
 * rejection ends the `svc` process).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSvc } from '@svc-run/sdk';
import type { EvaluationClient, TargetItem } from '@svc-run/sdk/evals';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CommandRecord, CommandRecords } from './command-records.js';
import { commandTarget } from './command-target.js';

// No export happens: nothing is flushed, and the origin is never contacted.
const svc = createSvc({
  apiKey: 'svc_test_0123456789abcdef',
  baseUrl: 'http://127.0.0.1:9',
  serviceName: 'command-target-test',
  captureContent: false,
});
let runDirectory: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  runDirectory = await mkdtemp(join(tmpdir(), 'svc-command-target-'));
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  // Nothing to deliver: the spans of these cases go nowhere (no service), so do not wait for one.
  await svc.shutdownSafe(1);
  await rm(runDirectory, { recursive: true, force: true });
});
afterEach(() => {
  unhandled.length = 0;
});

/** Records kept in memory, answering at once (the case's directory is removed after them). */
function memoryRecords() {
  const saved: CommandRecord[] = [];
  const records = {
    save: async (record: CommandRecord) => {
      saved.push(record);
    },
    markStarting: async () => undefined,
  } as unknown as CommandRecords;
  return { saved, records };
}

const item: TargetItem = {
  caseId: '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a',
  versionId: '1b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a',
  kind: 'eval_set',
  externalKey: 'one',
  inputs: {},
  files: [],
};

async function runTarget(command: string) {
  const { saved, records } = memoryRecords();
  const target = commandTarget({
    command,
    timeoutMillis: 600_000,
    client: {} as EvaluationClient,
    svc,
    runDirectory,
    records,
    baseEnv: process.env,
    interrupt: new AbortController().signal,
    hooks: {},
  });
  const outcome = await svc
    .withSpan('eval.case', (span) => target({}, { config: {}, item, span }))
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  // Whatever was left unobserved is reported by now: after the I/O of the directory's removal.
  await new Promise((resolve) => setImmediate(resolve));
  return { outcome, saved };
}

describe('commandTarget', () => {
  it('rejects with CommandFailed for a command that exits non-zero, and nothing else', async () => {
    const { outcome, saved } = await runTarget('echo oops >&2; exit 3');
    expect(outcome).toMatchObject({
      name: 'CommandFailed',
      message: 'The command exited with code 3. Its stderr ends with: oops',
    });
    expect(saved.at(-1)).toMatchObject({ exitCode: 3, error: { type: 'CommandFailed' } });
    expect(unhandled).toEqual([]);
  });

  it('rejects with NoOutput for a command that writes nothing, and nothing else', async () => {
    const { outcome, saved } = await runTarget('true');
    expect(outcome).toMatchObject({ name: 'NoOutput' });
    expect(saved.at(-1)).toMatchObject({ exitCode: 0, error: { type: 'NoOutput' } });
    expect(unhandled).toEqual([]);
  });
});
