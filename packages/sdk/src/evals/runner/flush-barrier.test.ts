import { describe, expect, it } from 'vitest';
import { flushBarrier } from './flush-barrier.js';

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('flushBarrier', () => {
  it('makes a call that arrives during a flush wait for the next flush, shared by every such call', async () => {
    const flushes: ReturnType<typeof deferred>[] = [];
    const covering = flushBarrier(() => {
      const flush = deferred();
      flushes.push(flush);
      return flush.promise;
    });
    const settled: string[] = [];
    const first = covering().then(() => settled.push('first'));
    expect(flushes).toHaveLength(1);
    const second = covering().then(() => settled.push('second'));
    const third = covering().then(() => settled.push('third'));
    expect(flushes).toHaveLength(1); // no overlapping flush
    flushes[0]!.resolve();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual(['first']);
    expect(flushes).toHaveLength(2); // one more flush for both later calls
    flushes[1]!.resolve();
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(flushes).toHaveLength(2);
    const fourth = covering();
    expect(flushes).toHaveLength(3); // idle again: starts at once
    flushes[2]!.resolve();
    await fourth;
  });

  it('rejects the calls a failed flush covered, and goes on with the next', async () => {
    const flushes: ReturnType<typeof deferred>[] = [];
    const covering = flushBarrier(() => {
      const flush = deferred();
      flushes.push(flush);
      return flush.promise;
    });
    const first = covering();
    const second = covering();
    flushes[0]!.reject(new Error('export failed'));
    await expect(first).rejects.toThrow('export failed');
    await new Promise((resolve) => setImmediate(resolve));
    flushes[1]!.resolve();
    await expect(second).resolves.toBeUndefined();
  });
});
