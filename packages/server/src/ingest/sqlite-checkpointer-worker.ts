/**
 * The checkpoint thread of the embedded store. On its own connection it copies committed WAL
 * frames back into the database file (a `PASSIVE` checkpoint) a short while after the writer
 * reports a commit, while the writer goes on committing. The writer then no longer stops for the
 * bulk of that copy and the database file's fsync: its own automatic checkpoint, which is still
 * what lets the WAL start over from its beginning, finds almost every frame copied already.
 *
 * Checkpoints never change what is durable: a request is answered after its commit reached the
 * WAL on disk (`synchronous = FULL`), and a checkpoint syncs the database file before it marks
 * frames copied. A checkpoint that fails (a busy lock, a full disk) is left to the next one.
 * It runs through the common thread entry (`thread-entry.ts`).
 * @module
 */
import { DatabaseSync } from 'node:sqlite';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';

/** A message to the checkpoint thread from the request thread. */
export type CheckpointerRequest = { type: 'close' };

/** What the writer sends on its port after each commit. */
export type CommitNotice = { type: 'committed' };

/**
 * How long after a commit the thread checkpoints: commits arriving meanwhile share the copy and
 * the one fsync of the database file that ends it.
 */
const CHECKPOINT_DELAY_MILLIS = 100;

const { path, commits } = workerData as { path: string; commits: MessagePort };
const port = parentPort!;
const db = new DatabaseSync(path);
db.exec('PRAGMA synchronous = FULL');
let timer: NodeJS.Timeout | undefined;

function checkpoint(): void {
  timer = undefined;
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Left to the next checkpoint, or to the writer's own automatic one.
  }
}

commits.on('message', (_notice: CommitNotice) => {
  timer ??= setTimeout(checkpoint, CHECKPOINT_DELAY_MILLIS);
});

port.on('message', (message: CheckpointerRequest) => {
  if (message.type !== 'close') return;
  if (timer !== undefined) clearTimeout(timer);
  db.close();
  commits.close();
  port.close();
});
