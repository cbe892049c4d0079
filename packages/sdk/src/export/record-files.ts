/**
 * Files the client's helpers attach to a span or log record — attachments placed in recorded
 * values, recorded files with `upload: true` — kept beside the record until it is exported,
 * when they are listed in its `svc.blobs` and uploaded (if the record still holds them).
 *
 * The bytes such a file keeps in memory count in the 128 MiB upload budget from the moment it is
 * attached, not only once its record is exported: records wait in the export queue (up to 2,048
 * of them), and their files with them. A file attached when the budget is full lets go of its
 * bytes at once; its record still carries its digest, and the file counts as a `budget` fallback
 * when the record is exported. A charge is given back when the record's files are taken for
 * export (the upload takes it over), when the record is dropped, or when the record is garbage
 * collected without either (a span never ended).
 *
 * Spans are keyed by the span object itself (the one the span processor receives when it ends).
 * A log record does not exist before it is emitted: the helper emits it inside
 * {@link RecordFiles.emitting}, and the log record processor, called synchronously by the
 * logger, {@link RecordFiles.claim claims} the files for the record it receives.
 * @module
 */
import type { FileSource, FoundFile } from '../media/media-types.js';

/** Where a file attached to a record is held in the exported record. */
export type FileHolder = { attribute: string } | { event: 'svc.file' };

/** A file a helper attaches to a record. */
export interface AttachedFile {
  file: FoundFile;
  /** The attribute whose value holds the file's digest form, or the `svc.file` event naming it. */
  holder: FileHolder;
}

/** A file attached to a record, with its charge of the upload budget. */
export interface RecordFile extends AttachedFile {
  /** The budget taken for its bytes, or `undefined`: refused for want of budget, bytes let go. */
  charge: number | undefined;
}

/** The upload budget, as the files of records waiting for export use it (the uploader's). */
export interface FileBudget {
  /** Charges the bytes `file` keeps in memory; `undefined` when there is no room. */
  hold(file: FoundFile): number | undefined;
  /** Gives back a charge of `hold`. */
  release(charge: number): void;
}

/** No budget: every file is held, free (for tests of the export path without an uploader). */
const UNBOUNDED: FileBudget = { hold: () => 0, release: () => {} };

/** The source of a file refused at attach: its bytes are let go, it never uploads. */
const LET_GO: FileSource = { kind: 'bytes', bytes: new Uint8Array(0) };

/**
 * The charges of one record's files, given back when the record is collected unexported. Only
 * their total: the registry holds this until its callback runs, and must not keep the files'
 * bytes alive that long.
 */
interface Charges {
  total: number;
}

/** The files attached to records not yet exported. */
export class RecordFiles {
  readonly #budget: FileBudget;
  readonly #files = new WeakMap<object, RecordFile[]>();
  readonly #charges = new WeakMap<object, Charges>();
  readonly #collected: FinalizationRegistry<Charges>;
  #emitting: RecordFile[] | undefined;

  constructor(budget: FileBudget = UNBOUNDED) {
    this.#budget = budget;
    this.#collected = new FinalizationRegistry((charges) => this.#give(charges.total));
  }

  /** Sets the files held by `attribute` of `record`, replacing those of an earlier value. */
  setAttribute(record: object, attribute: string, files: readonly FoundFile[]): void {
    const held = this.#files.get(record);
    // Every helper value comes here; most records hold no file and get none.
    if (held === undefined && files.length === 0) return;
    const kept: RecordFile[] = [];
    for (const file of held ?? []) {
      if ('attribute' in file.holder && file.holder.attribute === attribute) this.#give(file.charge);
      else kept.push(file);
    }
    for (const file of files) kept.push(this.#charged({ file, holder: { attribute } }));
    this.#set(record, kept);
  }

  /** Adds a recorded file named by a `svc.file` event of `record`. */
  addEvent(record: object, file: FoundFile): void {
    const added = this.#charged({ file, holder: { event: 'svc.file' } });
    this.#set(record, [...(this.#files.get(record) ?? []), added]);
  }

  /** The files attached to `record`, in the order they were attached (they stay attached). */
  of(record: object): readonly RecordFile[] {
    return this.#files.get(record) ?? [];
  }

  /** Whether files are attached to `record`. */
  holds(record: object): boolean {
    return this.#files.has(record);
  }

  /**
   * Takes the files attached to `record`, in the order they were attached, for its export: their
   * charges are the caller's now (to hand to the uploader, or to give back with
   * {@link RecordFiles.release}).
   */
  take(record: object): readonly RecordFile[] {
    const files = this.#files.get(record) ?? [];
    this.#forget(record);
    return files;
  }

  /** Gives back the charges of files taken from a record and not handed to the uploader. */
  release(files: readonly RecordFile[]): void {
    for (const file of files) this.#give(file.charge);
  }

  /** Lets go of the files of a record that will not be exported (dropped from the queue). */
  drop(record: object): void {
    this.release(this.take(record));
  }

  /** Runs `emit` (a log record emission) with `files` offered to the record it emits. */
  emitting<T>(files: readonly AttachedFile[], emit: () => T): T {
    const outer = this.#emitting;
    this.#emitting = files.length === 0 ? undefined : files.map((file) => this.#charged(file));
    try {
      return emit();
    } finally {
      // Files no record claimed (no log record processor of this transport) are let go.
      if (this.#emitting !== undefined) this.release(this.#emitting);
      this.#emitting = outer;
    }
  }

  /** Attaches the files of the emission in progress (if any) to `record`. */
  claim(record: object): void {
    if (this.#emitting === undefined) return;
    this.#set(record, this.#emitting);
    this.#emitting = undefined;
  }

  /** `file` with its charge, or let go of its bytes when the budget has no room. */
  #charged(file: AttachedFile): RecordFile {
    const charge = this.#budget.hold(file.file);
    if (charge !== undefined) return { ...file, charge };
    return { file: { ...file.file, source: LET_GO }, holder: file.holder, charge: undefined };
  }

  #give(charge: number | undefined): void {
    if (charge !== undefined && charge > 0) this.#budget.release(charge);
  }

  #set(record: object, files: RecordFile[]): void {
    if (files.length === 0) {
      this.#forget(record);
      return;
    }
    this.#files.set(record, files);
    const total = files.reduce((sum, file) => sum + (file.charge ?? 0), 0);
    const charges = this.#charges.get(record);
    if (charges !== undefined) charges.total = total;
    else if (total > 0) {
      const created = { total };
      this.#charges.set(record, created);
      this.#collected.register(record, created, created);
    }
  }

  #forget(record: object): void {
    this.#files.delete(record);
    const charges = this.#charges.get(record);
    if (charges === undefined) return;
    this.#charges.delete(record);
    this.#collected.unregister(charges);
  }
}
