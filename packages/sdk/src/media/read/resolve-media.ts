/**
 * `media.resolve`: a recorded value with its files in digest form read back and written in place.
 * @module
 */
import { MediaFetchError } from '../../errors/media-fetch-error.js';
import type { ServiceEndpoint } from '../../options/svc-options.js';
import { locateDigestFiles, replaceFiles } from './digest-locations.js';
import { type ReadFileResult, readFile } from './read-file.js';
import {
  type MediaResolveFailure,
  type MediaResolveFailureReason,
  type MediaResolveResult,
  type ResolvedResolveOptions,
  resolveResolveOptions,
} from './resolve-options.js';

/** Files read at the same time. */
const CONCURRENT_READS = 4;

/** Reads each digest once, `CONCURRENT_READS` at a time; a failure is kept as its error. */
async function readAll(
  endpoint: ServiceEndpoint,
  digests: readonly string[],
  options: ResolvedResolveOptions,
): Promise<Map<string, ReadFileResult | MediaFetchError>> {
  const results = new Map<string, ReadFileResult | MediaFetchError>();
  let next = 0;
  const worker = async () => {
    while (next < digests.length) {
      const sha256 = digests[next++]!;
      try {
        results.set(sha256, await readFile(endpoint, { ...options, sha256 }));
      } catch (error) {
        if (!MediaFetchError.isInstance(error)) throw error;
        results.set(sha256, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, digests.length) }, worker));
  return results;
}

/** Why a file was not restored, given what reading it gave and whether the record keeps a prefix. */
function failureReason(result: MediaFetchError | undefined, keepsPrefix: boolean): MediaResolveFailureReason {
  const reason = result?.reason ?? 'not_listed';
  const bytesNeverStored = reason === 'not_listed' || reason === 'missing' || reason === 'not_found';
  return bytesNeverStored && keepsPrefix ? 'prefix_only' : reason;
}

/**
 * The value to resolve: the whole value in place of its kept prefix when `options.wholeValue`
 * names its upload and it can be read (as UTF-8 text); otherwise `value`, with the failure.
 */
async function wholeValueOf(
  endpoint: ServiceEndpoint,
  value: unknown,
  options: ResolvedResolveOptions,
  failures: MediaResolveFailure[],
): Promise<unknown> {
  const entry = options.wholeValue;
  if (entry === undefined || typeof value !== 'string') return value;
  try {
    const { bytes } = await readFile(endpoint, { ...options, sha256: entry.sha256 });
    return new TextDecoder().decode(bytes);
  } catch (error) {
    if (!MediaFetchError.isInstance(error)) throw error;
    failures.push({ pointer: '', sha256: entry.sha256, reason: failureReason(error, true) });
    return value;
  }
}

/**
 * Reads back every file in digest form of `value` that the record's `svc.blobs` lists (each
 * digest once) and returns a new value with those files in place; the others are reported in
 * `failures` and left as recorded. With `options.attribute`, a value kept as the prefix of a
 * value uploaded whole is first replaced by the whole value.
 *
 * @throws TypeError for invalid options.
 * @throws the signal's reason when `options.signal` aborts.
 */
export async function resolveMedia(
  endpoint: ServiceEndpoint,
  value: unknown,
  options: unknown,
): Promise<MediaResolveResult> {
  const resolved = resolveResolveOptions(options);
  const failures: MediaResolveFailure[] = [];
  const locations = locateDigestFiles(await wholeValueOf(endpoint, value, resolved, failures));
  const listed = new Set(locations.files.map((f) => f.holder.sha256).filter((d) => resolved.blobs.has(d)));
  const results = await readAll(endpoint, [...listed], resolved);
  const result = replaceFiles(
    locations,
    (file) => {
      const { holder } = file;
      const read = results.get(holder.sha256);
      if (read === undefined || MediaFetchError.isInstance(read)) {
        failures.push({
          pointer: file.pointer,
          ...(file.innerPointer === undefined ? {} : { innerPointer: file.innerPointer }),
          sha256: holder.sha256,
          reason: failureReason(read, file.holder.prefix !== undefined),
        });
        return undefined;
      }
      if (resolved.as === 'bytes' && file.innerPointer === undefined) return read.bytes;
      const contentType =
        holder.contentType ?? resolved.blobs.get(holder.sha256)?.content_type ?? read.contentType;
      return holder.restore(read.bytes, contentType);
    },
    { parsed: resolved.as === 'bytes' },
  );
  return { value: result, failures };
}
