/**
 * `createMediaReader`: reads recorded files back from the service (`svc.media`).
 *
 * @example
 * ```ts
 * const media = createMediaReader({ apiKey: process.env.SVC_READ_KEY!, baseUrl });
 * const bytes = await media.fetch({ traceId, sha256 });
 * const { value, failures } = await media.resolve(span.attributes['gen_ai.input.messages'], {
 *   traceId,
 *   spanId,
 *   blobs: span.attributes['svc.blobs'],
 *   attribute: 'gen_ai.input.messages',
 * });
 * // A file of an evaluation trace snapshot (a Read and write key):
 * const copy = await createMediaReader({ apiKey: readWriteKey, baseUrl }).fetch({ snapshotId, sha256 });
 * ```
 * @module
 */

import type { ServiceEndpoint } from '../../options/svc-options.js';
import { validateApiKey, validateBaseUrl, validateTimeoutMillis } from '../../options/validate-options.js';
import { requireSupportedRuntime } from '../../runtime/supported-runtime.js';
import { type MediaFetchOptions, optionsRecord, resolveFetchOptions } from './fetch-options.js';
import { readFile } from './read-file.js';
import { resolveMedia } from './resolve-media.js';
import type { MediaResolveOptions, MediaResolveResult } from './resolve-options.js';

/** Options of {@link createMediaReader}: the same rules as the client options of those names. */
export interface MediaReaderOptions {
  /**
   * A Read or Read and write key of the project (a Tracing key cannot read files); files of trace
   * snapshots need a Read and write key.
   */
  apiKey: string;
  /** The service origin; default the hosted origin. */
  baseUrl?: string;
  /**
   * Integer 100 to 60000, default 10000: the wait for each answer, and between two chunks of a
   * download; not a deadline for a whole download (pass a `signal` for that).
   */
  timeoutMillis?: number;
}

/** Reads recorded files back: `svc.media`. */
export interface MediaReader {
  /**
   * The bytes of the file `sha256` recorded in the trace (`traceId`), or listed by the evaluation
   * trace snapshot (`snapshotId`, Read and write key), after checking their SHA-256.
   *
   * @throws TypeError for invalid options.
   * @throws {@link MediaFetchError} when the file cannot be read (see its `reason`).
   * @throws the signal's reason when `options.signal` aborts.
   */
  fetch(options: MediaFetchOptions): Promise<Uint8Array>;

  /**
   * A new value with every file in digest form of `value` (a recorded value, or its JSON text)
   * that `options.blobs` lists read back and written in place, in its convention's form (or as
   * bytes with `as: 'bytes'`). Each file is read once, however often it is used. Files that
   * cannot be restored stay as recorded and are listed in `failures` with their JSON pointer and
   * reason; they never make the call fail. `value` is not modified. Files are read from the trace
   * (`options.traceId`) or the evaluation trace snapshot (`options.snapshotId`, Read and write key).
   *
   * @throws TypeError for invalid options.
   * @throws the signal's reason when `options.signal` aborts.
   */
  resolve(value: unknown, options: MediaResolveOptions): Promise<MediaResolveResult>;
}

/**
 * Creates a media reader on the service at `baseUrl`, authenticated with a Read or Read and write
 * key. Download links are fetched without the key.
 *
 * @throws TypeError naming the option, the value and the rule when an option is invalid.
 * @throws UnsupportedRuntimeError on a runtime the SDK does not support (Node.js 20, for example).
 */
export function createMediaReader(options: MediaReaderOptions): MediaReader {
  requireSupportedRuntime();
  const given = optionsRecord(options, 'createMediaReader options');
  const endpoint: ServiceEndpoint = {
    apiKey: validateApiKey(given.apiKey),
    baseUrl: validateBaseUrl(given.baseUrl),
    timeoutMillis: validateTimeoutMillis(given.timeoutMillis),
  };
  return {
    async fetch(fetchOptions) {
      const target = resolveFetchOptions(fetchOptions);
      return (await readFile(endpoint, target)).bytes;
    },
    resolve(value, resolveOptions) {
      return resolveMedia(endpoint, value, resolveOptions);
    },
  };
}
