/**
 * The service's log record processor: queues every emitted log record into the log pipeline
 * (with the files a helper attached to it while emitting it). A flush sends the queued records,
 * then waits for the uploads of files queued before it.
 * @module
 */
import type { LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import type { RecordFiles } from './record-files.js';
import type { SignalPipeline } from './signal-pipeline.js';

/** Queues emitted log records for export to the service. */
export class SvcLogRecordProcessor implements LogRecordProcessor {
  readonly #pipeline: SignalPipeline<ReadableLogRecord>;
  readonly #files: RecordFiles | undefined;
  readonly #uploads: () => Promise<void>;

  /**
   * `files` receives the records emitted (to attach a helper's files); `uploads` resolves once
   * the file uploads queued before the call have ended.
   */
  constructor(
    pipeline: SignalPipeline<ReadableLogRecord>,
    files?: RecordFiles,
    uploads: () => Promise<void> = async () => {},
  ) {
    this.#pipeline = pipeline;
    this.#files = files;
    this.#uploads = uploads;
  }

  onEmit(record: ReadWriteLogRecord): void {
    this.#files?.claim(record);
    this.#pipeline.add(record as unknown as ReadableLogRecord);
  }

  /**
   * Exports what is queued, then waits for the uploads queued before; resolves once both settled
   * (failures are in the transport's issues and report).
   */
  async forceFlush(): Promise<void> {
    await this.#pipeline.flush();
    await this.#uploads();
  }

  async shutdown(): Promise<void> {
    await this.#pipeline.shutdown();
    await this.#uploads();
  }
}
