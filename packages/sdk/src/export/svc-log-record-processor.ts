/**
 * The service's log record processor: queues every emitted log record into the log pipeline.
 * @module
 */
import type { LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import type { SignalPipeline } from './signal-pipeline.js';

/** Queues emitted log records for export to the service. */
export class SvcLogRecordProcessor implements LogRecordProcessor {
  readonly #pipeline: SignalPipeline<ReadableLogRecord>;

  constructor(pipeline: SignalPipeline<ReadableLogRecord>) {
    this.#pipeline = pipeline;
  }

  onEmit(record: ReadWriteLogRecord): void {
    this.#pipeline.add(record as unknown as ReadableLogRecord);
  }

  /** Exports what is queued; resolves once it settled (failures are in the transport's issues). */
  forceFlush(): Promise<void> {
    return this.#pipeline.flush();
  }

  shutdown(): Promise<void> {
    return this.#pipeline.shutdown();
  }
}
