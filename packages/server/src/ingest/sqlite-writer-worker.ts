/**
 * The writer thread of the embedded store. It owns the only writing connection to the database
 * and stores the batches the request thread sends, in arrival order, with group commit: the
 * batches queued while a transaction runs are stored together in the next one. When a shared
 * transaction fails, each of its batches is retried alone, so one bad batch fails only its own
 * request. A batch is acknowledged only after its transaction committed (`synchronous = FULL`).
 * It runs through the common thread entry (`thread-entry.ts`).
 * @module
 */
import { hash } from 'node:crypto';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { indexBacklog, indexStep } from '../read/trace-index/trace-indexer.js';
import type { FileWrite } from './file-writes.js';
import type { CommitNotice } from './sqlite-checkpointer-worker.js';
import type { AttributesCell, WriteBatch } from './write-batch.js';

/**
 * A message to the writer: from the request thread (`connect` hands over a port on which a
 * decoder thread sends its writes; `close`; `file`, a write of media-file records), or a `write`
 * from either. Replies go back on the port the write came from.
 */
export type WriterRequest =
  | { type: 'write'; id: number; batch: WriteBatch }
  | { type: 'file'; id: number; write: FileWrite }
  /** Brings the trace index up to date with every span stored before the request; answered `written`. */
  | { type: 'index'; id: number }
  | { type: 'connect'; port: MessagePort }
  | { type: 'close' };

/** A message to the request thread. */
export type WriterReply = { type: 'written'; id: number } | { type: 'failed'; id: number; message: string };

const MAX_CACHED_IDS = 10_000;
const port = parentPort!;
const { path, commits } = workerData as { path: string; commits: MessagePort };
const db = new DatabaseSync(path);
db.exec('PRAGMA synchronous = FULL');
// Foreign keys are declared but not enforced on this connection: every row it writes refers to
// resource, scope and trace rows found or inserted in the same transaction (and the tests check the
// store with `foreign_key_check`). Enforcing them makes each span upsert a multi-write statement
// that may abort, so SQLite keeps a statement journal for it, copying every page it touches
// first: about a quarter of the writer's SQLite instructions per span (callgrind, bench spans).
db.exec('PRAGMA foreign_keys = OFF');
db.exec('PRAGMA busy_timeout = 5000');
// The checkpoint thread (sqlite-checkpointer-worker) copies committed frames into the database
// file shortly after each commit, on its own connection. The writer's own checkpoint, every 8,000
// pages (64 MiB), then has little left to copy; it is what lets the WAL start over from its
// beginning. The WAL file is truncated back to 64 MiB at most.
db.exec('PRAGMA wal_autocheckpoint = 8000');
db.exec('PRAGMA journal_size_limit = 67108864');
// A page cache of up to 64 MiB (SQLite's default is 2 MiB): a group commit of a few 512-span
// requests dirties more pages than 2 MiB, which then spill to the WAL before the commit and are
// written again; and the index and trace pages that every batch touches stay cached between
// transactions. Measured on the ingest benchmark: about 15 % more spans/s stored for OTLP JSON.
db.exec('PRAGMA cache_size = -65536');

const statement = (sql: string): StatementSync => db.prepare(sql);
const sql = {
  findResource: statement('SELECT id FROM resources WHERE digest = ?'),
  insertResource: statement(
    'INSERT INTO resources (digest, attributes, dropped_attributes_count, schema_url) VALUES (?, ?, ?, ?) RETURNING id',
  ),
  findScope: statement('SELECT id FROM scopes WHERE digest = ?'),
  insertScope: statement(
    'INSERT INTO scopes (digest, name, version, attributes, dropped_attributes_count, schema_url) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
  ),
  upsertSpan: statement(
    `INSERT INTO spans (resource_id, scope_id, trace_no, span_id, parent_span_id, trace_state, flags, name, kind,
       start_time_unix_nano, end_time_unix_nano, attributes, dropped_attributes_count,
       dropped_events_count, dropped_links_count, status_code, status_message, fields)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?, ?, ?, ?)
     ON CONFLICT (trace_no, span_id) DO UPDATE SET
       parent_span_id = excluded.parent_span_id, trace_state = excluded.trace_state, flags = excluded.flags,
       name = excluded.name, kind = excluded.kind, start_time_unix_nano = excluded.start_time_unix_nano,
       end_time_unix_nano = excluded.end_time_unix_nano, attributes = excluded.attributes,
       dropped_attributes_count = excluded.dropped_attributes_count,
       dropped_events_count = excluded.dropped_events_count, dropped_links_count = excluded.dropped_links_count,
       status_code = excluded.status_code, status_message = excluded.status_message, fields = excluded.fields,
       resource_id = excluded.resource_id, scope_id = excluded.scope_id`,
  ),
  // A new trace gets the next row number; a known one keeps its number, and its revision grows.
  touchTrace: statement(
    `INSERT INTO traces (trace_id, revision, created_at, updated_at) VALUES (?, 1, ?, ?)
     ON CONFLICT (trace_id) DO UPDATE SET revision = revision + 1, updated_at = excluded.updated_at
     RETURNING trace_no, revision`,
  ),
  deleteEvents: statement('DELETE FROM span_events WHERE trace_no = ? AND span_id = ?'),
  deleteLinks: statement('DELETE FROM span_links WHERE trace_no = ? AND span_id = ?'),
  insertEvent: statement(
    `INSERT OR REPLACE INTO span_events (trace_no, span_id, position, time_unix_nano, name, attributes, dropped_attributes_count)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ),
  insertLink: statement(
    `INSERT OR REPLACE INTO span_links (trace_no, span_id, position, linked_trace_id, linked_span_id, trace_state, flags,
       attributes, dropped_attributes_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  deleteExpiredReservations: statement('DELETE FROM blob_reservations WHERE expires_at < ?'),
  insertReservation: statement(
    `INSERT INTO blob_reservations (id, project_id, trace_id, sha256, size, content_type, key, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  insertHeldFile: statement(
    `INSERT INTO trace_files (project_id, trace_id, sha256, size, content_type, first_key, stored_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, trace_id, sha256) DO NOTHING`,
  ),
  insertLog: statement(
    `INSERT INTO log_records (resource_id, scope_id, trace_no, span_id, time_unix_nano, observed_time_unix_nano,
       severity_number, severity_text, event_name, body, attributes, dropped_attributes_count, flags, fields)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?)`,
  ),
};

/** What `touchTrace` returns. */
interface TraceRow {
  trace_no: number;
  revision: number;
}

/** Resource and scope row IDs by content digest; cleared after a rollback. */
const idsByDigest = new Map<string, number>();

function rowId(digest: string, find: StatementSync, insert: () => unknown): number {
  const cached = idsByDigest.get(digest);
  if (cached !== undefined) return cached;
  const row = (find.get(digest) ?? insert()) as { id: number };
  if (idsByDigest.size >= MAX_CACHED_IDS) idsByDigest.clear();
  idsByDigest.set(digest, row.id);
  return row.id;
}

function store(batch: WriteBatch): void {
  const resourceIds = batch.resources.map(([attributes, dropped, schemaUrl]) => {
    const digest = `r:${hash('sha256', `${attributes}\u0000${dropped}\u0000${schemaUrl}`)}`;
    return rowId(digest, sql.findResource, () =>
      sql.insertResource.get(digest, attributes, dropped, schemaUrl),
    );
  });
  const scopeIds = batch.scopes.map(([name, version, attributes, dropped, schemaUrl]) => {
    const digest = `s:${hash('sha256', [name, version, attributes, dropped, schemaUrl].join('\u0000'))}`;
    return rowId(digest, sql.findScope, () =>
      sql.insertScope.get(digest, name, version, attributes, dropped, schemaUrl),
    );
  });
  // Each trace's row: its number, and whether it was stored before (its spans may be re-sent:
  // their old events and links are then replaced).
  const now = Date.now();
  const numbers = new Map<string, number>();
  const known = new Set<number>();
  for (const traceId of batch.traces) {
    const { trace_no: number, revision } = sql.touchTrace.get(traceId, now, now) as unknown as TraceRow;
    numbers.set(traceId, number);
    if (revision > 1) known.add(number);
  }
  const text = (cell: AttributesCell): string | Uint8Array =>
    typeof cell === 'string' ? cell : batch.source!.subarray(cell[0], cell[1]);
  for (const [
    group,
    traceId,
    spanId,
    parent,
    state,
    flags,
    name,
    kind,
    start,
    end,
    attributes,
    ...rest
  ] of batch.spans) {
    const number = numbers.get(traceId)!;
    sql.upsertSpan.run(
      resourceIds[group]!,
      scopeIds[group]!,
      number,
      spanId,
      parent,
      state,
      flags,
      name,
      kind,
      BigInt(start),
      BigInt(end),
      text(attributes),
      ...rest,
    );
    if (known.has(number)) {
      sql.deleteEvents.run(number, spanId);
      sql.deleteLinks.run(number, spanId);
    }
  }
  for (const [traceId, spanId, position, time, name, attributes, dropped] of batch.events) {
    sql.insertEvent.run(numbers.get(traceId)!, spanId, position, BigInt(time), name, attributes, dropped);
  }
  for (const [traceId, ...rest] of batch.links) sql.insertLink.run(numbers.get(traceId)!, ...rest);
  for (const row of batch.logs) {
    const [
      group,
      traceId,
      spanId,
      time,
      observed,
      severity,
      severityText,
      eventName,
      body,
      attributes,
      ...rest
    ] = row;
    sql.insertLog.run(
      resourceIds[group]!,
      scopeIds[group]!,
      traceId === '' ? null : numbers.get(traceId)!,
      spanId,
      BigInt(time),
      BigInt(observed),
      severity,
      severityText,
      eventName,
      body,
      text(attributes),
      ...rest,
    );
  }
}

function storeFile(write: FileWrite): void {
  if (write.op === 'hold') {
    sql.insertHeldFile.run(...write.row);
    return;
  }
  sql.deleteExpiredReservations.run(write.row[7]);
  sql.insertReservation.run(...write.row);
}

/** A queued write: an ingest batch or a write of media-file records. */
type Work = { batch: WriteBatch } | { file: FileWrite };

function apply(work: Work): void {
  if ('batch' in work) store(work.batch);
  else storeFile(work.file);
}

function inTransaction(work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    work();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    idsByDigest.clear();
    throw error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

type ReplyPort = Pick<MessagePort, 'postMessage'>;
let queue: { id: number; work: Work; reply: ReplyPort }[] = [];
const connected: MessagePort[] = [];
let scheduled = false;

function drain(): void {
  scheduled = false;
  if (queue.length === 0) return;
  scheduleIdleIndexing();
  const writes = queue;
  queue = [];
  try {
    inTransaction(() => {
      for (const write of writes) apply(write.work);
    });
    for (const { id, reply } of writes) reply.postMessage({ type: 'written', id } satisfies WriterReply);
    commits.postMessage({ type: 'committed' } satisfies CommitNotice);
    return;
  } catch (error) {
    if (writes.length === 1) {
      const [{ id, reply }] = writes as [(typeof writes)[0]];
      reply.postMessage({ type: 'failed', id, message: describe(error) } satisfies WriterReply);
      return;
    }
  }
  for (const { id, work, reply } of writes) {
    try {
      inTransaction(() => apply(work));
      reply.postMessage({ type: 'written', id } satisfies WriterReply);
      commits.postMessage({ type: 'committed' } satisfies CommitNotice);
    } catch (error) {
      reply.postMessage({ type: 'failed', id, message: describe(error) } satisfies WriterReply);
    }
  }
}

/**
 * The trace index (`read/trace-index/`) is kept here, off the ingest path: a step of it runs only
 * when no write has come for {@link INDEX_IDLE_MILLIS}, or when a reader asks (`index`). Steps are
 * small and writes go first, so indexing never holds a request's commit back by more than a step.
 */
const INDEX_IDLE_MILLIS = 200;
const INDEX_STEP_SPANS = 2_000;
let idleTimer: NodeJS.Timeout | undefined;
const indexWaiters: { id: number; reply: ReplyPort }[] = [];
let indexing = false;

function scheduleIdleIndexing(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => runIndexing(), INDEX_IDLE_MILLIS);
  idleTimer.unref();
}

/** Runs index steps while nothing else waits, until the index is up to date; then answers the waiters. */
function runIndexing(): void {
  if (indexing) return;
  indexing = true;
  const step = (): void => {
    if (closing) {
      indexing = false;
      return;
    }
    if (queue.length > 0) {
      // Writes first; the index goes on once they are stored.
      indexing = false;
      scheduleIdleIndexing();
      if (indexWaiters.length > 0) setImmediate(runIndexing);
      return;
    }
    let read: number;
    try {
      read = indexStep(db, INDEX_STEP_SPANS);
    } catch (error) {
      indexing = false;
      for (const { id, reply } of indexWaiters.splice(0)) {
        reply.postMessage({ type: 'failed', id, message: describe(error) } satisfies WriterReply);
      }
      return;
    }
    if (read > 0) {
      commits.postMessage({ type: 'committed' } satisfies CommitNotice);
      setImmediate(step);
      return;
    }
    indexing = false;
    for (const { id, reply } of indexWaiters.splice(0)) {
      reply.postMessage({ type: 'written', id } satisfies WriterReply);
    }
  };
  step();
}

let closing = false;

function receive(message: WriterRequest, reply: ReplyPort): void {
  switch (message.type) {
    case 'connect':
      connected.push(message.port);
      message.port.on('message', (request: WriterRequest) => receive(request, message.port));
      return;
    case 'index':
      if (indexBacklog(db) === 0 && !indexing) {
        reply.postMessage({ type: 'written', id: message.id } satisfies WriterReply);
      } else {
        indexWaiters.push({ id: message.id, reply });
        if (!indexing) setImmediate(runIndexing);
      }
      return;
    case 'close':
      closing = true;
      clearTimeout(idleTimer);
      if (queue.length > 0) drain();
      for (const { id, reply: waiter } of indexWaiters.splice(0)) {
        waiter.postMessage({ type: 'failed', id, message: 'the store is closing' } satisfies WriterReply);
      }
      db.close();
      commits.close();
      for (const p of connected) p.close();
      port.close();
      return;
    case 'write':
      enqueue(message.id, { batch: message.batch }, reply);
      return;
    case 'file':
      enqueue(message.id, { file: message.write }, reply);
  }
}

function enqueue(id: number, work: Work, reply: ReplyPort): void {
  queue.push({ id, work, reply });
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}

port.on('message', (message: WriterRequest) => receive(message, port));
