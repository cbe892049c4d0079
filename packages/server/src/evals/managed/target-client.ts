/**
 * The HTTP client of deliveries, on Node's own `http`/`https`: each request resolves the target's
 * name through the address policy's `lookup`, which Node calls while it connects, so the address
 * checked is the address connected to; an IP literal (for which Node resolves nothing) is checked
 * before connecting. Redirects are never followed (Node's client does not follow them). A
 * dedicated agent without keep-alive makes every delivery open (and check) its own connection.
 *
 * Not undici: importing the `undici` package replaces the process's global fetch dispatcher, a
 * side effect a server embedded in an application (or a test process) must not have.
 * @module
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { readCapped } from '@svc-run/io';
import type { TargetAddressPolicy } from './target-address-policy.js';

/** A target's answer: its status, and its body when it was at most the limit. */
export interface TargetAnswer {
  status: number;
  /** The body, or `undefined` when it was longer than the limit (the rest was not read). */
  body: Buffer | undefined;
}

/** POSTs to managed targets where the address policy allows. */
export class TargetClient {
  readonly #policy: TargetAddressPolicy;
  readonly #http = new HttpAgent({ keepAlive: false });
  readonly #https = new HttpsAgent({ keepAlive: false });

  constructor(policy: TargetAddressPolicy) {
    this.#policy = policy;
  }

  /**
   * POSTs `body` to `url` with `headers`; resolves with the status and the body (up to
   * `maxBodyBytes`). A redirect is answered as it is, not followed.
   *
   * @throws TargetAddressRefusedError when the host is or resolves to an address the policy refuses;
   *   the connection's error when the target cannot be reached; the abort reason when `signal` aborts.
   */
  post(
    url: string,
    body: string,
    options: { headers: Record<string, string>; signal: AbortSignal; maxBodyBytes: number },
  ): Promise<TargetAnswer> {
    const target = new URL(url);
    const refused = this.#policy.literalRefusal(target.hostname);
    if (refused !== undefined) return Promise.reject(refused);
    const https = target.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        agent: https ? this.#https : this.#http,
        lookup: this.#policy.connectLookup,
        signal: options.signal,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        readCapped(response, options.maxBodyBytes).then(
          (read) => resolve({ status: response.statusCode ?? 0, body: read }),
          reject,
        );
      });
      request.end(body);
    });
  }

  /** Closes the client's sockets. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
