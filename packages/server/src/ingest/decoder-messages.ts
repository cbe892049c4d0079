/**
 * Messages between the request thread and a decoder thread.
 * @module
 */

import type { IngestOutcome, OtlpEncoding, OtlpSignal } from './decode-request.js';
import type { WriterReply } from './sqlite-writer-worker.js';

/** From the request thread. `body` is transferred, not copied. */
export type DecoderRequest =
  | { type: 'decode'; id: number; signal: OtlpSignal; encoding: OtlpEncoding; body: Uint8Array }
  | { type: 'close' };

/**
 * To the request thread: first `decoded` (or `malformed` / `failed`); then, when `stored` was
 * true, the writer's `written` or `failed` for the same ID.
 */
export type DecoderReply =
  | { type: 'decoded'; id: number; outcome: IngestOutcome; stored: boolean }
  | { type: 'malformed'; id: number; message: string }
  | WriterReply;
