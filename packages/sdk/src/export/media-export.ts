/**
 * The media step of the export path, after the content policy (spec "Automatic capture of
 * files", "Events" 2, and "Additional behavior tied to limits"): inline files in scanned
 * attributes are replaced by their digest form and listed in the record's `svc.blobs`, together
 * with the attachments and recorded files the helpers attached; their bytes are queued for upload
 * while the record is exported at once with its references.
 *
 * Who uploads: spans, and log records correlated with a span that are `gen_ai.*` events
 * (`recordMessages` records included: their scanned attributes, and a structured body with
 * `body#<pointer>` keys). A file uploads when content capture is on, the key is an ordinary
 * project key (not `svc_setup_…`), the uploader is open (not shut down, upload route present),
 * the 128 MiB memory budget has room and the record lists fewer than 64 files. A refused file
 * counts in `uploadFallbacks`; it keeps its digest without an entry in `gen_ai.input.messages`,
 * `gen_ai.output.messages` and `ai.prompt.messages`, and its bytes inline elsewhere (in a log
 * body, media over 64 KiB becomes its digest).
 *
 * What never uploads: span events, links and resources, and log records without a span: their
 * media up to 64 KiB stays as recorded, larger media becomes its digest. With capture off
 * nothing is scanned and nothing uploads.
 * @module
 */
import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import { type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import { isScannedAttribute } from '@svc-run/conventions';
import { describeFailure } from '../diagnostics/describe-failure.js';
import { reportFailure } from '../diagnostics/report-failure.js';
import {
  BLOBS_ATTRIBUTE,
  type DecideFile,
  type FoundFile,
  MAX_BLOB_ENTRIES,
  TEXT_INLINE_LIMIT,
} from '../media/media-types.js';
import { attributeMayHoldFiles, scanAttribute, scanStructured } from '../media/scan/index.js';
import type { UploadBatch, Uploader, UploadOrigin, UploadRefusal } from '../media/upload/index.js';
import type { ExportAccounting } from './export-accounting.js';
import type { RecordFile, RecordFiles } from './record-files.js';

/** The prefix of setup credentials, which upload no files. */
export const SETUP_KEY_PREFIX = 'svc_setup_';
/** Attributes where a refused file keeps its digest (elsewhere it keeps its bytes). */
export const MESSAGE_ATTRIBUTES: ReadonlySet<string> = new Set([
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'ai.prompt.messages',
]);
const INVALID_TRACE_ID = '00000000000000000000000000000000';

/** Why a file was refused at export. */
type Refusal = UploadRefusal | 'setup-key' | 'entries' | 'uncorrelated';

const REFUSALS: Readonly<Record<Refusal, string>> = {
  'setup-key': 'the key is a setup credential (svc_setup_…), which uploads no files',
  closed: 'uploads were ended by shutdown',
  'no-route': 'the service has no upload route',
  budget: 'the 128 MiB memory budget for uploads was full',
  entries: 'the record already lists 64 files in svc.blobs',
  uncorrelated: 'the log record is not correlated with a span',
};

/** Records that never upload: media up to 64 KiB stays, larger media becomes its digest. */
const neverUpload: DecideFile = (file) => (file.size > TEXT_INLINE_LIMIT ? 'digest' : 'keep');

/** One compact JSON entry of `svc.blobs`. */
export function blobEntry(file: FoundFile): string {
  return JSON.stringify({
    key: file.key,
    sha256: file.sha256,
    size: file.size,
    content_type: file.contentType,
    ...(file.name === undefined ? {} : { name: file.name }),
  });
}

/** What the media step needs. */
export interface MediaExportOptions {
  captureContent: boolean;
  apiKey: string;
  uploader: Uploader;
  files: RecordFiles;
  accounting: ExportAccounting;
}

/** The media step: returns the record to export (a copy when anything changed). */
export interface MediaExport {
  /** `original` is the span as ended (its attached files), `prepared` the content policy's copy. */
  span(original: ReadableSpan, prepared: ReadableSpan): ReadableSpan;
  /** `original` is the log record as emitted, `prepared` the content policy's copy. */
  logRecord(original: ReadableLogRecord, prepared: ReadableLogRecord): ReadableLogRecord;
}

/**
 * The files of one record: its `svc.blobs` entries, admissions and refusals. Most records hold
 * no file, so it reads the existing entries and makes its lists only when a file comes.
 */
class RecordUploads {
  readonly #uploader: Uploader;
  readonly #traceId: string;
  readonly #origin: UploadOrigin;
  readonly #refusal: Refusal | undefined;
  /** The record's `svc.blobs` value as the content policy left it. */
  readonly #existing: AttributeValue | undefined;
  /** The existing entries (at most 64) and then those added; made on the first file. */
  #entries: string[] | undefined;
  #added = 0;
  #refusals: Map<Refusal, number> | undefined;

  constructor(
    uploader: Uploader,
    traceId: string,
    origin: UploadOrigin,
    refusal: Refusal | undefined,
    existing: AttributeValue | undefined,
  ) {
    this.#uploader = uploader;
    this.#traceId = traceId;
    this.#origin = origin;
    this.#refusal = refusal;
    this.#existing = existing;
  }

  /** The record's `svc.blobs`, when this step added entries. */
  get entries(): string[] | undefined {
    return this.#added > 0 ? this.#entries : undefined;
  }

  /** The entries listed so far, the existing ones first. */
  #listed(): string[] {
    this.#entries ??= existingEntries(this.#existing).slice(0, MAX_BLOB_ENTRIES);
    return this.#entries;
  }

  #add(entry: string): void {
    this.#listed().push(entry);
    this.#added++;
  }

  /**
   * Scans one value with `scan(decide)`: admitted files are listed and queued when the value
   * changed; a refused file becomes what `refused(file)` says.
   */
  scan<V>(
    scan: (decide: DecideFile) => { value: V; changed: boolean },
    refused: DecideFile,
  ): { value: V; changed: boolean } {
    // Most values hold no file: the batch is made on the first one found.
    let batch: UploadBatch | undefined;
    const listed: string[] = [];
    let result: { value: V; changed: boolean };
    try {
      result = scan((file) => {
        batch ??= this.#uploader.batch();
        const refusal = this.#admit(batch, file, listed.length);
        if (refusal === undefined) {
          listed.push(blobEntry(file));
          return 'upload';
        }
        this.#refuse(refusal);
        return refused(file);
      });
    } catch (error) {
      batch?.cancel();
      throw error;
    }
    if (result.changed) {
      batch?.commit();
      for (const entry of listed) this.#add(entry);
    } else {
      batch?.cancel();
    }
    return result;
  }

  /**
   * Lists and queues files the helpers attached (already in digest form in the record) that the
   * record still holds; each one's charge of the budget goes to its upload or back.
   */
  attach(files: readonly RecordFile[], held: (file: RecordFile) => boolean): void {
    if (files.length === 0) return;
    const batch = this.#uploader.batch();
    for (const attached of files) {
      if (!held(attached)) {
        if (attached.charge !== undefined) this.#uploader.release(attached.charge);
        continue;
      }
      // Refused when it was attached: the budget was full, its bytes are gone.
      const refusal =
        attached.charge === undefined
          ? (this.#refusal ?? 'budget')
          : this.#admit(batch, attached.file, 0, attached.charge);
      if (refusal === undefined) this.#add(blobEntry(attached.file));
      else this.#refuse(refusal);
    }
    batch.commit();
  }

  /** Counts the refused files as fallbacks, one issue per reason. */
  report(accounting: ExportAccounting): void {
    if (this.#refusals === undefined) return;
    for (const [refusal, count] of this.#refusals) {
      accounting.uploadFallback(this.#origin, count, REFUSALS[refusal]);
    }
  }

  /** Offers `file`; `held`, a charge taken when it was attached, goes to its upload or back. */
  #admit(batch: UploadBatch, file: FoundFile, listed: number, held?: number): Refusal | undefined {
    const refusal =
      this.#refusal ?? (this.#listed().length + listed >= MAX_BLOB_ENTRIES ? 'entries' : undefined);
    if (refusal !== undefined) {
      if (held !== undefined) this.#uploader.release(held);
      return refusal;
    }
    return batch.offer({ traceId: this.#traceId, file, origin: this.#origin }, held);
  }

  #refuse(refusal: Refusal): void {
    this.#refusals ??= new Map();
    this.#refusals.set(refusal, (this.#refusals.get(refusal) ?? 0) + 1);
  }
}

function existingEntries(value: AttributeValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Whether the exported record still holds an attached file (the redactor may have removed it). */
function stillHeld(file: RecordFile, attributes: Attributes, events: readonly TimedEvent[]): boolean {
  if ('attribute' in file.holder) {
    const value = attributes[file.holder.attribute];
    return typeof value === 'string' && value.includes(`"sha256":"${file.file.sha256}"`);
  }
  return events.some((e) => e.name === 'svc.file' && e.attributes?.['svc.file.sha256'] === file.file.sha256);
}

/** Attribute names already looked up in the content table, and whether they are scanned. */
const scannedNames = new Map<string, boolean>();
/** Names remembered at most; an application minting names without end does not grow the map. */
const MAX_SCANNED_NAMES = 4_096;

/** {@link isScannedAttribute}, remembered per name. */
function isScanned(name: string): boolean {
  let scanned = scannedNames.get(name);
  if (scanned === undefined) {
    scanned = isScannedAttribute(name);
    if (scannedNames.size < MAX_SCANNED_NAMES) scannedNames.set(name, scanned);
  }
  return scanned;
}

/**
 * Runs `scan` on each scanned attribute of `attributes` whose value is a string that may hold
 * files (most values are proven not to, without setting up a scan); returns a new map when any
 * value changed, else `attributes` itself.
 */
function scanEach(
  attributes: Attributes,
  scan: (name: string, value: string) => { value: string; changed: boolean },
): Attributes {
  let copy: Attributes | undefined;
  for (const name of Object.keys(attributes)) {
    const value = attributes[name];
    if (typeof value !== 'string' || !isScanned(name) || !attributeMayHoldFiles(name, value, attributes)) {
      continue;
    }
    const result = scan(name, value);
    if (result.changed) {
      copy ??= { ...attributes };
      copy[name] = result.value;
    }
  }
  return copy ?? attributes;
}

/** Scans the attributes of a record that never uploads. */
function scanNeverUploading(attributes: Attributes): Attributes {
  return scanEach(attributes, (name, value) => scanAttribute(name, value, neverUpload, attributes));
}

/** Creates the media step of one transport. */
export function createMediaExport(options: MediaExportOptions): MediaExport {
  const { uploader, files, accounting } = options;
  const setupKey = options.apiKey.startsWith(SETUP_KEY_PREFIX);
  const resources = new WeakMap<Resource, Resource>();

  const resourceOf = (resource: Resource): Resource => {
    const cached = resources.get(resource);
    if (cached !== undefined) return cached;
    const attributes = scanNeverUploading(resource.attributes);
    const result =
      attributes === resource.attributes
        ? resource
        : resourceFromAttributes(attributes, { schemaUrl: resource.schemaUrl });
    if (resource.asyncAttributesPending !== true) resources.set(resource, result);
    return result;
  };

  const eventOf = <E extends TimedEvent | Link>(item: E): E => {
    if (item.attributes === undefined) return item;
    const attributes = scanNeverUploading(item.attributes);
    return attributes === item.attributes ? item : { ...item, attributes };
  };

  /** Scans the attributes of a record that uploads, its files admitted into `uploads`. */
  const scanAttributes = (attributes: Attributes, uploads: RecordUploads): Attributes =>
    scanEach(attributes, (name, value) =>
      uploads.scan(
        (decide) => scanAttribute(name, value, decide, attributes),
        MESSAGE_ATTRIBUTES.has(name) ? () => 'digest' : () => 'keep',
      ),
    );

  /** Runs the step; should it fail unexpectedly, the record goes as the content policy left it. */
  const guarded =
    <R>(signal: UploadOrigin, step: (original: R, prepared: R) => R) =>
    (original: R, prepared: R): R => {
      if (!options.captureContent) {
        files.drop(original as object);
        return prepared;
      }
      try {
        return step(original, prepared);
      } catch (error) {
        // A defect of the scanner or of the upload admission: the record goes as the content
        // policy left it, its files not taken give their budget back, and the cause is told.
        files.drop(original as object);
        reportFailure('error', 'the files of a record were not read: the media scan failed', error);
        accounting.raise(
          signal,
          'warning',
          0,
          `the files of a record were not read: the media scan failed (${describeFailure(error)})`,
        );
        return prepared;
      }
    };

  return {
    span: guarded<ReadableSpan>('traces', (original, prepared) => {
      const uploads = new RecordUploads(
        uploader,
        prepared.spanContext().traceId,
        'traces',
        setupKey ? 'setup-key' : undefined,
        prepared.attributes[BLOBS_ATTRIBUTE],
      );
      let attributes = scanAttributes(prepared.attributes, uploads);
      const events = prepared.events.length === 0 ? prepared.events : prepared.events.map(eventOf);
      uploads.attach(files.take(original), (f) => stillHeld(f, attributes, events));
      const entries = uploads.entries;
      if (entries !== undefined) attributes = { ...attributes, [BLOBS_ATTRIBUTE]: entries };
      uploads.report(accounting);
      const links = prepared.links.length === 0 ? prepared.links : prepared.links.map(eventOf);
      const resource = resourceOf(prepared.resource);
      const unchanged =
        attributes === prepared.attributes &&
        resource === prepared.resource &&
        (events === prepared.events || events.every((e, i) => e === prepared.events[i])) &&
        (links === prepared.links || links.every((l, i) => l === prepared.links[i]));
      return unchanged ? prepared : { ...prepared, attributes, events, links, resource };
    }),

    logRecord: guarded<ReadableLogRecord>('logs', (original, prepared) => {
      const resource = resourceOf(prepared.resource);
      const genAiEvent = prepared.eventName?.startsWith('gen_ai.') === true;
      if (!genAiEvent && !files.holds(original)) {
        return resource === prepared.resource ? prepared : { ...prepared, resource };
      }
      const traceId = prepared.spanContext?.traceId;
      const correlated = traceId !== undefined && traceId !== INVALID_TRACE_ID;
      const uploads = new RecordUploads(
        uploader,
        traceId ?? INVALID_TRACE_ID,
        'logs',
        setupKey ? 'setup-key' : correlated ? undefined : 'uncorrelated',
        prepared.attributes[BLOBS_ATTRIBUTE],
      );
      let attributes = prepared.attributes;
      let body = prepared.body;
      if (genAiEvent && correlated) {
        attributes = scanAttributes(attributes, uploads);
        if (typeof body === 'object' && body !== null) {
          body = uploads.scan((decide) => scanStructured(body, 'body', decide), neverUpload)
            .value as typeof body;
        }
      } else if (genAiEvent) {
        attributes = scanNeverUploading(attributes);
        if (typeof body === 'object' && body !== null)
          body = scanStructured(body, 'body', neverUpload).value as typeof body;
      }
      uploads.attach(files.take(original), (f) => stillHeld(f, attributes, []));
      const entries = uploads.entries;
      if (entries !== undefined) attributes = { ...attributes, [BLOBS_ATTRIBUTE]: entries };
      uploads.report(accounting);
      return attributes === prepared.attributes && body === prepared.body && resource === prepared.resource
        ? prepared
        : { ...prepared, attributes, body, resource };
    }),
  };
}
