import { describe, expect, it, vi } from 'vitest';
import { scoreJsonSchema } from './json-schema-check.js';

// The worker's failure paths, with a stand-in Worker whose behaviour each test sets. (The real
// worker, its timeouts and its restarts are tested in json-schema-check.test.ts.)
const fake = vi.hoisted(() => ({
  mode: 'throw' as 'throw' | 'exit-before-ready' | 'crash-on-job' | 'answer-valid',
  started: 0,
}));

vi.mock('node:worker_threads', async (importOriginal) => {
  const { EventEmitter } = await import('node:events');
  class FakeWorker extends EventEmitter {
    constructor() {
      super();
      fake.started += 1;
      if (fake.mode === 'throw') throw new Error('workers are not supported here');
      setImmediate(() => {
        if (fake.mode === 'exit-before-ready') this.emit('exit', 1);
        else this.emit('message', { ready: true });
      });
    }
    postMessage(message: { job: number }): void {
      setImmediate(() => {
        if (fake.mode === 'crash-on-job') this.emit('exit', 1);
        else this.emit('message', { job: message.job, outcome: 'valid', reading: 'value' });
      });
    }
    ref(): void {}
    unref(): void {}
    terminate(): Promise<number> {
      return Promise.resolve(1);
    }
  }
  return { ...(await importOriginal<typeof import('node:worker_threads')>()), Worker: FakeWorker };
});

const SCHEMA = { id: 1, source: 'module.exports = () => true;' };

function failed(errorName: string) {
  return {
    status: 'error',
    error: {
      type: 'SchemaValidatorError',
      message: `JSON Schema validation failed in its worker (${errorName}).`,
    },
  };
}

describe('the schema worker when it cannot run', () => {
  it('fails every waiting validation when no worker can be started', async () => {
    fake.mode = 'throw';
    const scores = await Promise.all([1, 2, 3].map((output) => scoreJsonSchema(output, SCHEMA, 60_000)));
    expect(scores).toEqual([1, 2, 3].map(() => failed('WorkerStartError')));
  });

  it('fails every waiting validation, once, when the worker ends before it is ready', async () => {
    fake.mode = 'exit-before-ready';
    fake.started = 0;
    const scores = await Promise.all([1, 2].map((output) => scoreJsonSchema(output, SCHEMA, 60_000)));
    expect(scores).toEqual([failed('WorkerStartError'), failed('WorkerStartError')]);
    expect(fake.started).toBe(1);
  });

  it('fails only the validation running when the worker dies, then starts a new one', async () => {
    fake.mode = 'crash-on-job';
    fake.started = 0;
    const crashed = scoreJsonSchema('x', SCHEMA, 60_000);
    expect(await crashed).toEqual(failed('WorkerExit'));
    fake.mode = 'answer-valid';
    expect(await scoreJsonSchema('x', SCHEMA, 60_000)).toMatchObject({
      status: 'scored',
      metrics: [{ value: true }],
    });
    expect(fake.started).toBe(2);
  });
});
