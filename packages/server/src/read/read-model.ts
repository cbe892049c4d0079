/**
 * The read model: one way back out of the store, used by the read API, the viewer and the MCP
 * tools, so all three say the same.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import { ApiError } from '../http/api-error.js';
import type { TraceFiles } from '../media/trace-files.js';
import type { TraceOutline } from './read-model-types.js';
import { searchTraces, type TracePage, type TraceSearchFilter } from './search-traces.js';
import { traceOutline } from './trace-outline.js';
import { TraceRows } from './trace-rows.js';

/** Reads stored traces. */
export class ReadModel {
  readonly #db: DatabaseSync;
  readonly #rows: TraceRows;
  readonly #files: TraceFiles;
  readonly #catchUp: () => Promise<void>;

  /**
   * Reads through `db` (the request thread's connection); `catchUpIndex` brings the trace index
   * up to date with every span stored so far (`TraceStore.catchUpIndex`).
   */
  constructor(db: DatabaseSync, files: TraceFiles, catchUpIndex: () => Promise<void>) {
    this.#db = db;
    this.#rows = new TraceRows(db);
    this.#files = files;
    this.#catchUp = catchUpIndex;
  }

  /**
   * Every span of trace `traceId` (32 lowercase hex) without attribute values, one page at a time
   * (at most 10,000 spans a page, in start order), and the trace's summary over all of them.
   *
   * @throws ApiError 404 (`not_found`) when no span or log record of the trace is stored.
   */
  async traceOutline(traceId: string, page: { after?: number; limit?: number } = {}): Promise<TraceOutline> {
    const traceNo = this.#traceNumber(traceId);
    await this.#catchUp();
    return traceOutline(traceId, traceNo, this.#rows, this.#files.listed(traceId), page);
  }

  /**
   * Traces newest first (by their earliest span's start), filtered; `page.after` is a previous
   * page's `nextCursor`, `page.limit` 1 to 100 (default 20).
   *
   * @throws ApiError 400 (`invalid_request`) for a cursor that is not one, or a span name part
   *   that matches too many names.
   */
  async searchTraces(
    filter: TraceSearchFilter,
    page: { after?: string; limit?: number } = {},
  ): Promise<TracePage> {
    await this.#catchUp();
    return searchTraces(this.#db, filter, page);
  }

  #traceNumber(traceId: string): number {
    const traceNo = this.#rows.traceNumber(traceId);
    if (traceNo === undefined) {
      throw new ApiError(404, 'not_found', 'No spans or logs of this trace are stored (yet).');
    }
    return traceNo;
  }
}
