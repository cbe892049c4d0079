/**
 * A request body gathered in memory as its bytes arrive: one buffer this reader owns, grown
 * geometrically (capped at the declared length, else the size limit). The declared length is not
 * reserved ahead of the bytes: a client that declares 64 MiB and sends 10 bytes costs 1 MiB. A
 * buffer given up (the body was refused, or the client went away) is freed at once, not left to
 * the garbage collector.
 *
 * What the buffer holds is charged to the request's body account: a body of declared length is
 * charged its whole length before it is read (so a body admitted is never refused halfway), a
 * body without one as its buffer grows.
 * @module
 */
import type { BodyAccount } from './body-admission.js';

/**
 * How a buffer grows. A body of declared length (charged whole already) starts with at most 1 MiB
 * (a typical export batch fits, read without a copy) and grows sixteenfold: few intermediate
 * buffers, and those under 32 MiB are the ones glibc keeps in its heap for reuse rather than
 * handing back to the system. A body without one starts with a socket read's 64 KiB and grows
 * twofold, charged as it goes.
 */
const DECLARED = { first: 1024 * 1024, growth: 16 };
const UNDECLARED = { first: 64 * 1024, growth: 2 };

/** Frees the memory of a buffer this module allocated, now (detaching its `ArrayBuffer`). */
function free(buffer: Buffer): void {
  const memory = buffer.buffer as ArrayBuffer; // from `allocUnsafeSlow`: never shared
  if (!memory.detached) memory.transfer(0);
}

/** The bytes of one body, gathered as they arrive. */
export class BodyBuffer {
  readonly #cap: number;
  readonly #first: number;
  readonly #growth: number;
  readonly #account: BodyAccount | undefined;
  #buffer: Buffer | undefined;
  #size = 0;
  /** Bytes charged to the account for this body. */
  #charged: number;

  /**
   * @param cap - Most bytes the body may hold: its declared length, or the size limit.
   * @param account - The request's body account.
   * @param prepaid - Bytes already charged to `account` for this body (its declared length).
   */
  constructor(cap: number, account: BodyAccount | undefined, prepaid = 0) {
    this.#cap = cap;
    const growth = prepaid > 0 ? DECLARED : UNDECLARED;
    this.#first = growth.first;
    this.#growth = growth.growth;
    this.#account = account;
    this.#charged = account === undefined ? 0 : prepaid;
  }

  /** Bytes gathered so far. */
  get size(): number {
    return this.#size;
  }

  /** True when `bytes` more would run past the cap. */
  wouldOverflow(bytes: number): boolean {
    return this.#size + bytes > this.#cap;
  }

  /**
   * Appends `chunk` (copied). The caller checks {@link wouldOverflow} first.
   * @throws ApiError 503 when the request's account cannot be charged for a larger buffer.
   */
  append(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    const needed = this.#size + chunk.byteLength;
    const capacity = this.#buffer?.length ?? 0;
    if (needed > capacity) this.#grow(needed, capacity);
    this.#buffer!.set(chunk, this.#size);
    this.#size = needed;
  }

  /**
   * The body, in a buffer that owns its whole `ArrayBuffer` (so it can be transferred to another
   * thread without a copy); it stays charged to the account, for its size. The buffer is the
   * caller's from then on.
   */
  take(): Buffer {
    const buffer = this.#buffer;
    this.#buffer = undefined;
    this.#refund(this.#charged - this.#size);
    if (buffer === undefined) return Buffer.alloc(0);
    if (buffer.length === this.#size) return buffer;
    // Fewer bytes than the capacity (a body without a declared length): the copy frees the rest.
    return Buffer.from((buffer.buffer as ArrayBuffer).transfer(this.#size));
  }

  /** Frees what was gathered and gives back everything charged for it. */
  discard(): void {
    const buffer = this.#buffer;
    this.#buffer = undefined;
    if (buffer !== undefined) free(buffer);
    this.#refund(this.#charged);
  }

  #refund(bytes: number): void {
    if (bytes <= 0) return;
    this.#account?.refund(bytes);
    this.#charged -= bytes;
  }

  #grow(needed: number, capacity: number): void {
    const next = Math.min(this.#cap, Math.max(needed, this.#first, capacity * this.#growth));
    if (this.#account !== undefined && next > this.#charged) {
      this.#account.charge(next - this.#charged);
      this.#charged = next;
    }
    const grown = Buffer.allocUnsafeSlow(next);
    if (this.#buffer !== undefined) {
      this.#buffer.copy(grown, 0, 0, this.#size);
      free(this.#buffer);
    }
    this.#buffer = grown;
  }
}
