/**
 * The memory budget of uploads: bytes held in memory for files admitted for upload and not yet
 * uploaded (spec "Limits": 128 MiB for values awaiting upload).
 *
 * What counts: every file whose bytes are in memory until it uploads — `bytes` sources
 * (attachment and recorded-file `data`, small `path` files read at creation, byte arrays found in
 * messages), `utf8` text and `base64` strings found in recorded values — each by its decoded size.
 * What does not: `path` sources over 25 MiB, which stream from disk at upload.
 *
 * A file larger than the whole budget (a slice-streamed attribute string of up to 1 GB) still
 * uploads: it is charged the whole budget, so it is admitted only when nothing else is held and
 * nothing else is admitted until it ends. Memory held by admitted uploads is therefore at most
 * the budget or the single largest such value.
 * @module
 */
import type { FileSource } from '../media-types.js';
import { UPLOAD_BUDGET_BYTES } from '../media-types.js';

/** The bytes a source keeps in memory until it uploads (0 for a file streamed from disk). */
export function heldBytes(source: FileSource, size: number): number {
  return source.kind === 'path' ? 0 : size;
}

/** Bytes admitted against a fixed limit. */
export class UploadBudget {
  readonly #limit: number;
  #used = 0;

  constructor(limit = UPLOAD_BUDGET_BYTES) {
    this.#limit = limit;
  }

  /** Bytes currently charged. */
  get used(): number {
    return this.#used;
  }

  /**
   * Charges `bytes` (at most the whole limit) when there is room; returns the charge to give back
   * later, or `undefined` when there is no room.
   */
  take(bytes: number): number | undefined {
    const charge = Math.min(bytes, this.#limit);
    if (this.#used + charge > this.#limit) return undefined;
    this.#used += charge;
    return charge;
  }

  /** Gives back a charge returned by {@link take}. */
  give(charge: number): void {
    this.#used = Math.max(0, this.#used - charge);
  }
}
