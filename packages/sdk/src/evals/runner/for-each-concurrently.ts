/**
 * A bounded pool: runs a task per item, at most `limit` at a time, in item order.
 * @module
 */

/**
 * Runs `task` for each item, at most `limit` at once, starting them in order. Stops starting new
 * tasks once `stop()` is true; tasks already started run to their end. `task` must not reject.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stop() && next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
