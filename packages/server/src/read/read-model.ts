/**
 * The read model: one way back out of the store, used by the read API, the viewer and the MCP
 * tools, so all three say the same.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import { ApiError } from '../http/api-error.js';
import type { FileListing } from '../ingest/file-records.js';
import { listedFiles } from '../media/listed-files.js';
import type { TraceFiles } from '../media/trace-files.js';
import type { LogRecordRecord } from '../otlp/model.js';
import { normalizeLogMessages, normalizeSpanMessages } from './messages/index.js';
import type { SpanDetail, TraceOutline } from './read-model-types.js';
import { type RecordedValue, type RecordedValueSource, recordedValue } from './recorded-value.js';
import { searchTraces, type TracePage, type TraceSearchFilter } from './search-traces.js';
import { spanDetail } from './span-detail.js';
import { type InlineFile, inlineFileOf } from './span-record-values.js';
import { SpanRows, type StoredSpan } from './span-rows.js';
import { outlineSpan, traceOutline } from './trace-outline.js';
import { TraceRows } from './trace-rows.js';

/** Reads stored traces. */
export class ReadModel {
  readonly #db: DatabaseSync;
  readonly #rows: TraceRows;
  readonly #spans: SpanRows;
  readonly #files: TraceFiles;
  readonly #catchUp: () => Promise<void>;

  /**
   * Reads through `db` (the request thread's connection); `catchUpIndex` brings the trace index
   * up to date with every span stored so far (`TraceStore.catchUpIndex`).
   */
  constructor(db: DatabaseSync, files: TraceFiles, catchUpIndex: () => Promise<void>) {
    this.#db = db;
    this.#rows = new TraceRows(db);
    this.#spans = new SpanRows(db);
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

  /**
   * Everything of span `spanId` (16 lowercase hex) of trace `traceId`: attributes, events, links,
   * resource and scope, correlated log records, messages normalized across conventions, every
   * file with its state, remote references and large values. Without `includeContent`, recorded
   * content (content attributes, message text, tool arguments and results, log bodies, status
   * messages) is left out, and its presence and size are shown.
   *
   * The correlated log records come a page at a time (at most 200, in time order): `logsFrom`
   * (default 0) is the index of the first one shown in the span's whole time-ordered list, and the
   * answer's `omittedLogs` counts those after the page (see `SpanDetail`).
   *
   * @throws ApiError 400 (`invalid_request`) when `logsFrom` is not an integer of 0 or more.
   * @throws ApiError 404 (`not_found`) when the trace or the span is not stored.
   */
  async spanDetail(
    traceId: string,
    spanId: string,
    options: { includeContent: boolean; logsFrom?: number },
  ): Promise<SpanDetail> {
    const logsFrom = options.logsFrom ?? 0;
    if (!Number.isSafeInteger(logsFrom) || logsFrom < 0) {
      throw new ApiError(
        400,
        'invalid_request',
        `logsFrom: must be an integer of 0 or more (the index of the first log record shown); got ${String(logsFrom)}.`,
      );
    }
    const traceNo = this.#traceNumber(traceId);
    await this.#catchUp();
    const span = this.#spans.span(traceNo, spanId);
    if (span === undefined)
      throw new ApiError(404, 'not_found', 'No span of this ID is stored in the trace.');
    const logs = this.#spans.logs(traceNo, traceId, spanId);
    // Read from the records already in hand: a second read of a record (maybe a 50 MB value)
    // through the file records' SQL would cost as much as the first.
    const listed = listedFiles(recordListings(span, logs));
    const fileKeys = new Set(listed.map((f) => `${f.record}:${f.logTimeUnixNano ?? ''}:${f.key}`));
    const outline = outlineSpan(
      {
        span_id: span.spanId,
        parent_span_id: span.parentSpanId,
        name: span.name,
        kind: span.kind,
        start_time_unix_nano: span.startTimeUnixNano,
        end_time_unix_nano: span.endTimeUnixNano,
        status_code: span.statusCode,
        model: span.facts.model,
        input_tokens: span.facts.inputTokens,
        output_tokens: span.facts.outputTokens,
        error_type: span.facts.errorType,
        error: span.facts.error ? 1 : 0,
      },
      span.parentSpanId !== '' && this.#spans.exists(traceNo, span.parentSpanId),
      span.events.length,
      logs.length,
      fileKeys.size,
    );
    return spanDetail(
      {
        traceId,
        span,
        outline,
        logs,
        logsFrom,
        listed,
        stateOf: async (sha256) => {
          const holding = await this.#files.holding(traceId, sha256);
          if (holding === undefined) return 'not uploaded';
          return holding.readable ? 'stored' : 'unavailable';
        },
        normalizeSpan: normalizeSpanMessages,
        normalizeLog: normalizeLogMessages,
      },
      options.includeContent,
    );
  }

  /**
   * One recorded value of span `spanId` of trace `traceId` whole, as text (the span detail shows
   * values to their first 64 KiB): an attribute of the span, its resource or scope, one of its
   * events, links or correlated log records, or a log record's body. Content is withheld without
   * `includeContent`.
   *
   * @throws ApiError 404 (`not_found`) when the trace, the span, the record or the attribute is
   *   not stored.
   */
  async recordedValue(
    traceId: string,
    spanId: string,
    source: RecordedValueSource,
    options: { includeContent: boolean },
  ): Promise<RecordedValue> {
    const { traceNo, span } = await this.#span(traceId, spanId);
    const logs = source.record === 'log' ? this.#spans.logs(traceNo, traceId, spanId) : [];
    const value = recordedValue(span, logs, source, options.includeContent);
    if (value === undefined) throw new ApiError(404, 'not_found', 'The span has no such recorded value.');
    return value;
  }

  /**
   * The bytes of file `sha256` that span `spanId` (or a log record correlated with it) still holds
   * inline (a data: URL or base64 part never uploaded), checked against the digest; `undefined`
   * when the span holds no such file inline. For the viewer, which serves them.
   *
   * @throws ApiError 404 (`not_found`) when the trace or the span is not stored.
   */
  async inlineFile(traceId: string, spanId: string, sha256: string): Promise<InlineFile | undefined> {
    const { traceNo, span } = await this.#span(traceId, spanId);
    const logs = this.#spans.logs(traceNo, traceId, spanId);
    return inlineFileOf(span, logs, this.#files.listed(traceId, { spanId }), sha256);
  }

  async #span(traceId: string, spanId: string): Promise<{ traceNo: number; span: StoredSpan }> {
    const traceNo = this.#traceNumber(traceId);
    await this.#catchUp();
    const span = this.#spans.span(traceNo, spanId);
    if (span === undefined)
      throw new ApiError(404, 'not_found', 'No span of this ID is stored in the trace.');
    return { traceNo, span };
  }

  #traceNumber(traceId: string): number {
    const traceNo = this.#rows.traceNumber(traceId);
    if (traceNo === undefined) {
      throw new ApiError(404, 'not_found', 'No spans or logs of this trace are stored (yet).');
    }
    return traceNo;
  }
}

/**
 * Where a span and its correlated log records list files (as `FileRecords.listings` returns
 * them for one span): the span's `svc.blobs`, its `svc.file` events, then each log's `svc.blobs`.
 */
function recordListings(span: StoredSpan, logs: readonly LogRecordRecord[]): FileListing[] {
  const blobs = (attributes: readonly { key: string; value: unknown }[]) =>
    attributes.find((attribute) => attribute.key === 'svc.blobs')?.value;
  const listings: FileListing[] = [];
  const spanBlobs = blobs(span.attributes);
  if (spanBlobs !== undefined)
    listings.push({ source: 'blobs', record: 'span', spanId: span.spanId, value: spanBlobs });
  for (const event of span.events) {
    if (event.name === 'svc.file') {
      listings.push({ source: 'event', record: 'span', spanId: span.spanId, attributes: event.attributes });
    }
  }
  for (const log of logs) {
    const logBlobs = blobs(log.attributes);
    if (logBlobs !== undefined) {
      listings.push({
        source: 'blobs',
        record: 'log',
        spanId: span.spanId,
        logTimeUnixNano: log.timeUnixNano,
        value: logBlobs,
      });
    }
  }
  return listings;
}
