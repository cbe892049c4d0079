/**
 * An OTLP `bytesValue` in a log body converted to JSON: bytes the record holds, kept as the
 * base64 text OTLP JSON writes them in.
 * @module
 */

/** Bytes recorded as an OTLP `bytesValue` (base64 in the stored form). */
export class BytesValue {
  readonly base64: string;

  constructor(base64: string) {
    this.base64 = base64;
  }

  /** As JSON: the base64 text. */
  toJSON(): string {
    return this.base64;
  }
}
