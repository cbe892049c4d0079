/**
 * The transport: span and log record processors that export to the service, with one shared
 * account of what happened to every record, and the uploads of the files the records list.
 * @module
 */

import { JsonLogsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { createContentPolicy } from '../content/content-policy.js';
import { Agent } from '../http/undici.js';
import { Uploader } from '../media/upload/index.js';
import type { ExportIssue, ResolvedSvcOptions, SvcOptions } from '../options/svc-options.js';
import { validateSvcOptions } from '../options/validate-options.js';
import { requireSupportedRuntime } from '../runtime/supported-runtime.js';
import type { EndedSpan } from './ended-span.js';
import { ExportAccounting, type Signal } from './export-accounting.js';
import type { ExportReport } from './export-report.js';
import { createMediaExport } from './media-export.js';
import { sendWithRetries } from './otlp-http-sender.js';
import { RecordFiles } from './record-files.js';
import { SignalPipeline } from './signal-pipeline.js';
import { SvcLogRecordProcessor } from './svc-log-record-processor.js';
import { SvcSpanProcessor } from './svc-span-processor.js';

/** The OTLP/HTTP paths of the service, below its origin. */
export const OTLP_PATHS: Readonly<Record<Signal, string>> = {
  traces: '/api/v1/otlp/v1/traces',
  logs: '/api/v1/otlp/v1/logs',
};

/** Span and log record processors exporting to the service, and their diagnostics. */
export interface SvcTransport {
  /** Attach to a tracer provider the application builds. */
  readonly spanProcessor: SvcSpanProcessor;
  /** Attach to a logger provider the application builds. */
  readonly logRecordProcessor: SvcLogRecordProcessor;
  /** Cumulative counters, and what is pending now. */
  getReport(): ExportReport;
  /** The latest 128 export issues, oldest first. */
  getIssues(): ExportIssue[];
  /** The sequence number of the latest failure issue (0 when none). */
  getFailureSequence(): number;
}

/** What the client needs of a transport beyond its public face. */
export interface TransportInternals {
  options: ResolvedSvcOptions;
  accounting: ExportAccounting;
  /** Files the client's helpers attach to spans and log records, uploaded when they export. */
  files: RecordFiles;
  /** The uploads of the files records list. */
  uploader: Uploader;
  /** Flushes both pipelines, then waits for the uploads queued before. */
  flush(): Promise<void>;
  /** Flushes and closes both pipelines, waits for the uploads, then closes the connections. */
  shutdown(): Promise<void>;
  /**
   * Ends exports in flight and waits between retries (their records count as failed), and every
   * upload not yet done (counted as fallbacks).
   */
  abort(): void;
}

const internals = new WeakMap<SvcTransport, TransportInternals>();

/** The internals of a transport made by {@link createSvcTransport}, or `undefined`. */
export function transportInternals(transport: SvcTransport): TransportInternals | undefined {
  return internals.get(transport);
}

/**
 * Creates the service's span and log record processors, for applications that build their own
 * tracer and logger providers. Validates `options` (throws `TypeError`); throws
 * `UnsupportedRuntimeError` on a runtime the SDK does not support (Node.js 20, for example).
 *
 * @example
 * ```ts
 * const transport = createSvcTransport({ apiKey, serviceName: 'chat', captureContent: false });
 * const tracerProvider = new TracerProvider({ spanProcessors: [transport.spanProcessor] });
 * ```
 */
export function createSvcTransport(options: SvcOptions): SvcTransport {
  requireSupportedRuntime();
  const resolved = validateSvcOptions(options);
  const accounting = new ExportAccounting(resolved.onExportIssue);
  const policy = createContentPolicy({ captureContent: resolved.captureContent, redact: resolved.redact });
  // Exports of both signals and 4 uploads at once: uploads must not hold up exports.
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  const abort = new AbortController();
  const uploader = new Uploader({
    baseUrl: resolved.baseUrl,
    apiKey: resolved.apiKey,
    timeoutMillis: resolved.timeoutMillis,
    dispatcher,
    sink: {
      uploaded: () => accounting.uploaded(),
      fallback: (origin, count, reason) => accounting.uploadFallback(origin, count, reason),
    },
  });
  // Attached files count in the upload budget from the moment they are attached.
  const files = new RecordFiles(uploader);
  const media = createMediaExport({
    captureContent: resolved.captureContent,
    apiKey: resolved.apiKey,
    uploader,
    files,
    accounting,
  });
  const uploads = () => uploader.drain();
  const send = (signal: Signal) => (body: Uint8Array) =>
    sendWithRetries(body, {
      url: `${resolved.baseUrl}${OTLP_PATHS[signal]}`,
      apiKey: resolved.apiKey,
      timeoutMillis: resolved.timeoutMillis,
      contentType: 'application/json',
      dispatcher,
      signal: abort.signal,
    });
  const spans = new SignalPipeline<EndedSpan, ReadableSpan>({
    signal: 'traces',
    accounting,
    prepare: (ended) => media.span(ended.span, policy.span(ended.span, ended.attributes)),
    dropped: (ended) => files.drop(ended.span),
    serialize: (records) => JsonTraceSerializer.serializeRequest(records),
    send: send('traces'),
  });
  const logs = new SignalPipeline<ReadableLogRecord>({
    signal: 'logs',
    accounting,
    prepare: (record) => media.logRecord(record, policy.logRecord(record)),
    dropped: (record) => files.drop(record),
    serialize: (records) => JsonLogsSerializer.serializeRequest(records),
    send: send('logs'),
  });
  const transport: SvcTransport = {
    spanProcessor: new SvcSpanProcessor(spans, uploads),
    logRecordProcessor: new SvcLogRecordProcessor(logs, files, uploads),
    getReport: () => accounting.report(),
    getIssues: () => accounting.issues(),
    getFailureSequence: () => accounting.failureSequence(),
  };
  internals.set(transport, {
    options: resolved,
    accounting,
    files,
    uploader,
    flush: async () => {
      await Promise.all([spans.flush(), logs.flush()]);
      await uploader.drain();
    },
    shutdown: async () => {
      await Promise.all([spans.shutdown(), logs.shutdown()]);
      uploader.close();
      await uploader.drain();
      await dispatcher.close();
    },
    abort: () => {
      abort.abort();
      uploader.abort();
    },
  });
  return transport;
}
