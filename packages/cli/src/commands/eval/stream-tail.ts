/**
 * The last bytes of an output stream: a command's stdout and stderr are kept bounded, whatever it
 * prints.
 * @module
 */

/** What was kept of a stream. */
export interface StreamTail {
  /** The last bytes as UTF-8 text (a character cut at the start is dropped). */
  text: string;
  /** Bytes the stream carried in all. */
  bytes: number;
  /** Whether bytes before `text` were dropped. */
  truncated: boolean;
}

/** Keeps the last `limit` bytes written to it. */
export class TailBuffer {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #kept = 0;
  #total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    while (this.#kept - (this.#chunks[0]?.length ?? 0) >= this.#limit) {
      this.#kept -= this.#chunks.shift()!.length;
    }
  }

  /** The tail kept so far. */
  tail(): StreamTail {
    let bytes = Buffer.concat(this.#chunks);
    const truncated = this.#total > this.#limit;
    if (bytes.length > this.#limit) bytes = bytes.subarray(bytes.length - this.#limit);
    if (truncated) {
      // Drop UTF-8 continuation bytes of a character cut at the start.
      let start = 0;
      while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    }
    return { text: bytes.toString('utf8'), bytes: this.#total, truncated };
  }
}
