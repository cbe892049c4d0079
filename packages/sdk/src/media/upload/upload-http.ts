/**
 * The HTTP exchanges of an upload, one attempt each: a JSON POST to the service with the project
 * key (reserve, complete) and the PUT of the bytes to the returned link, with exactly the
 * returned headers and no `Authorization`. Tracing is suppressed, so an application's HTTP
 * instrumentation records none of them. An attempt that gets no answer rejects.
 * @module
 */
import { readCapped } from '../../http/read-capped.js';
import { type Dispatcher, request } from '../../http/undici.js';
import { untraced } from '../../http/untraced.js';
import type { UploadBody } from './upload-body.js';

/** The largest answer body read from the upload routes. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** An HTTP answer of an upload route. */
export interface UploadAnswer {
  status: number;
  /** `Retry-After`, when the answer had one. */
  retryAfter: string | undefined;
  /** The parsed JSON body; `undefined` when empty, not JSON or too long. */
  json: unknown;
}

/** What every attempt needs. */
export interface AttemptOptions {
  dispatcher: Dispatcher;
  /** Ends the attempt (deadline, shutdown, per-request timeout). */
  signal: AbortSignal;
}

async function answerOf(response: Dispatcher.ResponseData): Promise<UploadAnswer> {
  const header = response.headers['retry-after'];
  let json: unknown;
  try {
    const body = await readCapped(response.body, MAX_ANSWER_BYTES);
    json = body === undefined || body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined; // not JSON (or cut off): the status decides, the body is never quoted
  }
  return { status: response.statusCode, retryAfter: Array.isArray(header) ? header[0] : header, json };
}

/** POSTs `body` as JSON to `url` with the project key. */
export function postJson(url: string, apiKey: string, body: unknown, options: AttemptOptions) {
  return untraced(async () =>
    answerOf(
      await request(url, {
        method: 'POST',
        dispatcher: options.dispatcher,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        signal: options.signal,
      }),
    ),
  );
}

/** PUTs `body` to a signed upload link with exactly `headers` (no `Authorization`). */
export function putBytes(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: UploadBody,
  options: AttemptOptions,
) {
  return untraced(async () =>
    answerOf(
      await request(url, {
        method: 'PUT',
        dispatcher: options.dispatcher,
        headers: { ...headers },
        // undici sends an async iterable body slice by slice (its types name only streams).
        body: body as Uint8Array,
        signal: options.signal,
      }),
    ),
  );
}
