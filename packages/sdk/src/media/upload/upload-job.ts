/**
 * An upload job: a file found in (or attached to) a record of a trace, whose bytes go to the
 * service's storage after the record is exported.
 * @module
 */
import type { ExportIssue } from '../../options/svc-options.js';
import type { FoundFile } from '../media-types.js';

/** The signal of the record a file belongs to (its fallback issues name it). */
export type UploadOrigin = ExportIssue['signal'];

/** One file to upload under one trace. */
export interface UploadJob {
  /** 32 lowercase hex characters: the OpenTelemetry trace ID of the record. */
  traceId: string;
  file: FoundFile;
  /** The signal of the record that lists the file; default `traces`. */
  origin?: UploadOrigin;
}

/** Where the counters and issues of uploads go (the transport's accounting). */
export interface UploadSink {
  /** A file is stored under its trace (uploaded now, or already held there). */
  uploaded(origin: UploadOrigin): void;
  /**
   * `count` files could not be uploaded and kept their digest or inline form. `reason` is written
   * by the SDK: never a key, a body or recorded content.
   */
  fallback(origin: UploadOrigin, count: number, reason: string): void;
}

/** Why a file was refused at export instead of being admitted for upload. */
export type UploadRefusal = 'closed' | 'no-route' | 'budget';
