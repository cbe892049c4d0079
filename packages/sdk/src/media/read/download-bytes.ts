/**
 * Downloads a file from its signed link, without the project key, with a size cap and a SHA-256
 * check (spec "Authentication" 5, "Required behaviors for integrators" 5).
 * @module
 */
import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { MediaFetchError } from '../../errors/media-fetch-error.js';
import { readCapped } from '../../http/read-capped.js';
import { serviceErrorCode } from '../../http/service-error-code.js';
import { declaredLength, networkReason, serviceAgent } from '../../http/service-request.js';
import { type Dispatcher, request } from '../../http/undici.js';
import { mediaFetchFailure, tooLargeFailure } from './media-fetch-failure.js';

/** Largest error body read, for its code only. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** One download. */
export interface DownloadRequest {
  /** The signed link. A credential for five minutes: never put in a message. */
  url: string;
  /** The SHA-256 the bytes must have. */
  sha256: string;
  /** Largest number of bytes accepted. */
  maxBytes: number;
  /** Wait for the answer, and between two chunks of the body, in milliseconds. */
  timeoutMillis: number;
  signal: AbortSignal | undefined;
}

async function errorCode(body: Dispatcher.ResponseData['body']): Promise<string | undefined> {
  try {
    const bytes = await readCapped(body, MAX_ERROR_BODY_BYTES);
    return bytes === undefined ? undefined : serviceErrorCode(JSON.parse(bytes.toString('utf8')));
  } catch {
    return undefined; // an error body that is not JSON has no code: the status decides the reason
  }
}

/** The error for a download answer other than 200. */
async function statusFailure(response: Dispatcher.ResponseData): Promise<MediaFetchError> {
  const status = response.statusCode;
  const code = await errorCode(response.body);
  if (status === 401 || status === 403) {
    return mediaFetchFailure(
      'forbidden',
      code === 'link_expired'
        ? `the download link expired before it was used (HTTP ${status}); links last five minutes: fetch the file again.`
        : `the download link was refused (HTTP ${status}); fetch the file again, and do not change the link.`,
      status,
    );
  }
  if (status === 404) {
    return code === 'missing'
      ? mediaFetchFailure('missing', `the file's bytes are no longer stored (HTTP 404).`, status)
      : mediaFetchFailure(
          'not_found',
          `the download link names no stored file (HTTP 404); fetch the file again.`,
          status,
        );
  }
  if (status === 503) {
    return mediaFetchFailure(
      'unavailable',
      `the service could not read its file storage (HTTP 503); try again later.`,
      status,
    );
  }
  if (status >= 300 && status < 400) {
    return mediaFetchFailure(
      'failed',
      `the download link answered with a redirect (HTTP ${status}), which is not followed.`,
      status,
    );
  }
  return mediaFetchFailure('failed', `the download answered with HTTP ${status}.`, status);
}

/** Reads the body up to `maxBytes`, hashing as it goes. */
async function readBody(response: Dispatcher.ResponseData, download: DownloadRequest): Promise<Uint8Array> {
  const declared = declaredLength(response.headers);
  if (declared !== undefined && declared > download.maxBytes) {
    // Destroying an unread body emits an abort error: it is expected, not worth a crash.
    response.body.on('error', () => {});
    response.body.destroy();
    throw tooLargeFailure(download.maxBytes, response.statusCode);
  }
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    // Leaving the loop ends the iteration, which destroys the body.
    if (size > download.maxBytes) throw tooLargeFailure(download.maxBytes, response.statusCode);
    hash.update(bytes);
    chunks.push(bytes);
  }
  if (hash.digest('hex') !== download.sha256) {
    throw mediaFetchFailure(
      'digest_mismatch',
      `the bytes received do not have the SHA-256 asked for (${size} bytes received); nothing is returned. Fetch again; if it persists, the stored file is damaged.`,
      response.statusCode,
    );
  }
  const bytes = Buffer.concat(chunks, size);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * GETs the signed link without the project key and returns its bytes once their SHA-256 is checked.
 *
 * @throws {@link MediaFetchError}: `too_large` as soon as the declared or received size passes
 *   `maxBytes`, `digest_mismatch`, `forbidden` (link refused or expired), `not_found`/`missing`,
 *   `unavailable` (503), `failed` (other statuses, no answer).
 * @throws the signal's reason when `download.signal` aborts.
 */
export async function downloadBytes(download: DownloadRequest): Promise<Uint8Array> {
  try {
    return await context.with(suppressTracing(context.active()), async () => {
      const response = await request(download.url, {
        method: 'GET',
        dispatcher: serviceAgent(),
        headersTimeout: download.timeoutMillis,
        bodyTimeout: download.timeoutMillis,
        ...(download.signal === undefined ? {} : { signal: download.signal }),
      });
      if (response.statusCode !== 200) throw await statusFailure(response);
      return await readBody(response, download);
    });
  } catch (error) {
    if (download.signal?.aborted) throw download.signal.reason;
    if (MediaFetchError.isInstance(error)) throw error;
    // The cause is dropped on purpose: undici errors can carry the signed link.
    const reason = networkReason(error);
    throw mediaFetchFailure(
      'failed',
      reason.includes('TIMEOUT')
        ? `the download did not answer within ${download.timeoutMillis} ms; try again.`
        : `the download could not be completed (${reason}); try again.`,
    );
  }
}
