/**
 * Builds the {@link MediaFetchError}s of the reader, with one message prefix.
 * @module
 */
import { MediaFetchError, type MediaFetchErrorReason } from '../../errors/media-fetch-error.js';

/** A {@link MediaFetchError} reading `Could not read the file: <message>`. */
export function mediaFetchFailure(
  reason: MediaFetchErrorReason,
  message: string,
  status?: number,
  cause?: unknown,
): MediaFetchError {
  return new MediaFetchError(`Could not read the file: ${message}`, {
    reason,
    ...(status === undefined ? {} : { status }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** `too_large`: the file is over the call's `maxBytes`. */
export function tooLargeFailure(maxBytes: number, status?: number): MediaFetchError {
  return mediaFetchFailure(
    'too_large',
    `the file is larger than maxBytes (${maxBytes} bytes); pass a larger maxBytes (up to 1000000000) to read it.`,
    status,
  );
}
