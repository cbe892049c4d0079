import { describe, expect, it } from 'vitest';
import { forEachConcurrently } from './for-each-concurrently.js';

describe('forEachConcurrently', () => {
  it('runs every item, at most `limit` at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachConcurrently([0, 1, 2, 3, 4, 5, 6], 3, async (item, index) => {
      expect(index).toBe(item);
      started.push(item);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
  });

  it('starts no new item once stop() is true, letting those started end', async () => {
    const ended: number[] = [];
    let stop = false;
    await forEachConcurrently(
      [0, 1, 2, 3, 4, 5],
      2,
      async (item) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (item === 0) stop = true;
        ended.push(item);
      },
      () => stop,
    );
    expect(ended).toEqual([0, 1]);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await forEachConcurrently([], 16, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });
});
