/**
 * Delivers dispatches: POSTs each dispatched execution's request, signed with the machine
 * credential, to its managed target, in the background, and records how it ended. A delivery is
 * sent once: the target's handler claims the execution before running it, so even a request
 * delivered twice would run the agent once; a failed delivery is not retried here (dispatch the
 * case again, replacing the execution).
 * @module
 */
import { managedSigningKey, SIGNATURE_HEADER, signManagedRequest } from './managed-request-signature.js';
import type { DeliveryResult, ManagedStore } from './managed-store.js';

/**
 * How long a delivery waits for the target's answer: the managed handler's longest execution
 * (90 s) and finalization (30 s), plus 15 s of transfer.
 */
export const DELIVERY_TIMEOUT_MILLIS = 90_000 + 30_000 + 15_000;

/** The most of a target's answer kept (its JSON summary). */
export const MAX_DELIVERY_RESPONSE_BYTES = 16 * 1024;

/** Options of {@link ManagedDeliveries}. */
export interface ManagedDeliveriesOptions {
  /** The project's machine credential; without it, deliveries fail (`no machine credential`). */
  machineCredential: string | undefined;
  /** How long a delivery waits for the answer; default {@link DELIVERY_TIMEOUT_MILLIS}. */
  timeoutMillis?: number;
  /** The clock, ms since the epoch (the signature's timestamp). */
  now?: () => number;
}

async function readAnswer(response: Response): Promise<unknown> {
  if (response.body === null) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_DELIVERY_RESPONSE_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

function failureOf(error: unknown, timedOut: boolean, closing: boolean, timeoutMillis: number): string {
  if (closing) return 'the server closed before the target answered';
  if (timedOut) return `the target did not answer within ${timeoutMillis} ms`;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code))
      return `the target could not be reached (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return 'the target could not be reached';
}

/** The background deliveries of one server. */
export class ManagedDeliveries {
  readonly #store: ManagedStore;
  readonly #signingKey: Buffer | undefined;
  readonly #timeoutMillis: number;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #closing = false;

  constructor(store: ManagedStore, options: ManagedDeliveriesOptions) {
    this.#store = store;
    this.#signingKey =
      options.machineCredential === undefined ? undefined : managedSigningKey(options.machineCredential);
    this.#timeoutMillis = options.timeoutMillis ?? DELIVERY_TIMEOUT_MILLIS;
    this.#now = options.now ?? Date.now;
  }

  /** Starts delivering a committed dispatch in the background. */
  deliver(dispatchId: string): void {
    if (this.#closing) {
      this.#finish(dispatchId, { state: 'failed', failure: 'the server closed before the target answered' });
      return;
    }
    const controller = new AbortController();
    const done = this.#send(dispatchId, controller).finally(() => this.#inFlight.delete(dispatchId));
    this.#inFlight.set(dispatchId, { controller, done });
  }

  /** Stops every delivery in flight (each is recorded as failed) and waits for them to end. */
  async close(): Promise<void> {
    this.#closing = true;
    const pending = [...this.#inFlight.values()];
    for (const delivery of pending) delivery.controller.abort();
    await Promise.all(pending.map((delivery) => delivery.done));
  }

  async #send(dispatchId: string, controller: AbortController): Promise<void> {
    if (this.#signingKey === undefined) {
      this.#finish(dispatchId, {
        state: 'failed',
        failure: 'the server has no machine credential to sign with',
      });
      return;
    }
    const timer = setTimeout(() => controller.abort(), this.#timeoutMillis);
    let timedOut = false;
    timer.unref?.();
    const onTimeout = () => {
      timedOut = !this.#closing;
    };
    controller.signal.addEventListener('abort', onTimeout, { once: true });
    try {
      const request = this.#store.requestOf(dispatchId);
      const body = JSON.stringify(request.body);
      const response = await fetch(request.url, {
        method: 'POST',
        redirect: 'manual',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signManagedRequest(this.#signingKey, body, this.#now()),
        },
        body,
      });
      const answer = await readAnswer(response);
      this.#finish(dispatchId, { state: 'delivered', status: response.status, response: answer });
    } catch (error) {
      this.#finish(dispatchId, {
        state: 'failed',
        failure: failureOf(error, timedOut, this.#closing, this.#timeoutMillis),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  #finish(dispatchId: string, result: DeliveryResult): void {
    try {
      this.#store.finishDispatch(dispatchId, result);
    } catch {
      // The store is closing: the dispatch stays `delivering`, which its reader sees as unanswered.
    }
  }
}
