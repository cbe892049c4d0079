/**
 * Files the client's helpers attach to a span or log record — attachments placed in recorded
 * values, recorded files with `upload: true` — kept beside the record until it is exported,
 * when they are listed in its `svc.blobs` and uploaded (if the record still holds them).
 *
 * Spans are keyed by the span object itself (the one the span processor receives when it ends).
 * A log record does not exist before it is emitted: the helper emits it inside
 * {@link RecordFiles.emitting}, and the log record processor, called synchronously by the
 * logger, {@link RecordFiles.claim claims} the files for the record it receives.
 * @module
 */
import type { FoundFile } from '../media/media-types.js';

/** A file attached to a record, and what of the exported record must still hold it. */
export interface RecordFile {
  file: FoundFile;
  /** The attribute whose value holds the file's digest form, or the `svc.file` event naming it. */
  holder: { attribute: string } | { event: 'svc.file' };
}

/** The files attached to records not yet exported. */
export class RecordFiles {
  readonly #files = new WeakMap<object, RecordFile[]>();
  #emitting: RecordFile[] | undefined;

  /** Sets the files held by `attribute` of `record`, replacing those of an earlier value. */
  setAttribute(record: object, attribute: string, files: readonly FoundFile[]): void {
    const held = this.#files.get(record);
    // Every helper value comes here; most records hold no file and get none.
    if (held === undefined && files.length === 0) return;
    const kept = (held ?? []).filter((f) => !('attribute' in f.holder) || f.holder.attribute !== attribute);
    for (const file of files) kept.push({ file, holder: { attribute } });
    this.#set(record, kept);
  }

  /** Adds a recorded file named by a `svc.file` event of `record`. */
  addEvent(record: object, file: FoundFile): void {
    this.#set(record, [...(this.#files.get(record) ?? []), { file, holder: { event: 'svc.file' } }]);
  }

  /** The files attached to `record`, in the order they were attached. */
  of(record: object): readonly RecordFile[] {
    return this.#files.get(record) ?? [];
  }

  /** Runs `emit` (a log record emission) with `files` offered to the record it emits. */
  emitting<T>(files: readonly RecordFile[], emit: () => T): T {
    const outer = this.#emitting;
    this.#emitting = files.length === 0 ? undefined : [...files];
    try {
      return emit();
    } finally {
      this.#emitting = outer;
    }
  }

  /** Attaches the files of the emission in progress (if any) to `record`. */
  claim(record: object): void {
    if (this.#emitting === undefined) return;
    this.#set(record, this.#emitting);
    this.#emitting = undefined;
  }

  #set(record: object, files: RecordFile[]): void {
    if (files.length === 0) this.#files.delete(record);
    else this.#files.set(record, files);
  }
}
