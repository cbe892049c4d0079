/**
 * The read model: one way back out of the store, used by the read API, the viewer and the MCP
 * tools, so all three say the same.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import { ApiError } from '../http/api-error.js';
import type { TraceFiles } from '../media/trace-files.js';
import type { TraceOutline } from './read-model-types.js';
import { serviceNameOf, traceOutline } from './trace-outline.js';
import { TraceRows } from './trace-rows.js';

/** Reads stored traces. */
export class ReadModel {
  readonly #rows: TraceRows;
  readonly #files: TraceFiles;
  /** `service.name` per resource row: resources never change once stored. */
  readonly #services = new Map<number, string | undefined>();

  constructor(db: DatabaseSync, files: TraceFiles) {
    this.#rows = new TraceRows(db);
    this.#files = files;
  }

  /**
   * Every span of trace `traceId` (32 lowercase hex) without attribute values, one page at a time
   * (at most 10,000 spans a page, in start order), and the trace's summary over all of them.
   *
   * @throws ApiError 404 (`not_found`) when no span or log record of the trace is stored.
   */
  traceOutline(traceId: string, page: { after?: number; limit?: number } = {}): TraceOutline {
    const traceNo = this.#traceNumber(traceId);
    return traceOutline(
      traceId,
      traceNo,
      {
        rows: this.#rows,
        listed: this.#files.listed(traceId),
        serviceOf: (resourceId) => this.#serviceOf(resourceId),
      },
      page,
    );
  }

  #traceNumber(traceId: string): number {
    const traceNo = this.#rows.traceNumber(traceId);
    if (traceNo === undefined) {
      throw new ApiError(404, 'not_found', 'No spans or logs of this trace are stored (yet).');
    }
    return traceNo;
  }

  #serviceOf(resourceId: number): string | undefined {
    if (!this.#services.has(resourceId)) {
      const attributes = this.#rows.resource(resourceId);
      this.#services.set(resourceId, attributes === undefined ? undefined : serviceNameOf(attributes));
    }
    return this.#services.get(resourceId);
  }
}
