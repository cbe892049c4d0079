/**
 * Helpers of the official-exporter end-to-end test: exporters that delegate to an official OTLP
 * exporter and record what it exported and the result it reported.
 * @module
 */
import type { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** The result an exporter reports (`ExportResult` of `@opentelemetry/core`, not a direct dependency). */
export type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];

/** `ExportResultCode.SUCCESS` of `@opentelemetry/core`. */
export const EXPORT_SUCCESS = 0;
/** `ExportResultCode.FAILED` of `@opentelemetry/core`. */
export const EXPORT_FAILED = 1;

type CompressionOption = NonNullable<
  NonNullable<ConstructorParameters<typeof OTLPLogExporter>[0]>['compression']
>;

/**
 * `CompressionAlgorithm.GZIP` of `@opentelemetry/otlp-exporter-base` (a string enum, whose package
 * is not a direct dependency): the `compression` option of every official OTLP/HTTP exporter.
 */
export const GZIP = 'gzip' as CompressionOption;

/** What a recording exporter saw. */
export interface Recording<T> {
  /** Every result the official exporter reported, in order. */
  results: ExportResult[];
  /** Every item handed to the official exporter, in order. */
  exported: T[];
}

/** Wraps an official span exporter; the wrapper is what the span processor calls. */
export function recordingSpanExporter(
  official: SpanExporter,
): Recording<ReadableSpan> & { exporter: SpanExporter } {
  const results: ExportResult[] = [];
  const exported: ReadableSpan[] = [];
  const exporter: SpanExporter = {
    export(spans, resultCallback) {
      exported.push(...spans);
      official.export(spans, (result) => {
        results.push(result);
        resultCallback(result);
      });
    },
    shutdown: () => official.shutdown(),
    forceFlush: () => official.forceFlush?.() ?? Promise.resolve(),
  };
  return { exporter, results, exported };
}

/** Wraps an official log record exporter; the wrapper is what the log record processor calls. */
export function recordingLogExporter(
  official: LogRecordExporter,
): Recording<ReadableLogRecord> & { exporter: LogRecordExporter } {
  const results: ExportResult[] = [];
  const exported: ReadableLogRecord[] = [];
  const exporter: LogRecordExporter = {
    export(records, resultCallback) {
      exported.push(...records);
      official.export(records, (result) => {
        results.push(result);
        resultCallback(result);
      });
    },
    shutdown: () => official.shutdown(),
    forceFlush: () => official.forceFlush(),
  };
  return { exporter, results, exported };
}
