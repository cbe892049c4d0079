/**
 * Delivers dispatches: POSTs each dispatched execution's request, signed with the machine
 * credential, to its managed target, in the background, and records how it ended. A delivery is
 * sent once: the target's handler claims the execution before running it, so even a request
 * delivered twice would run the agent once; a failed delivery is not retried here (dispatch the
 * case again, replacing the execution). Deliveries connect only to public addresses unless the
 * server allows private targets (checked at connection time, see `target-client.ts`), follow
 * no redirects, and keep only the managed handler's fields of the answer (`dispatch-answer.ts`).
 * @module
 */
import { dispatchAnswerOf } from './dispatch-answer.js';
import { managedSigningKey, SIGNATURE_HEADER, signManagedRequest } from './managed-request-signature.js';
import type { DeliveryResult, ManagedStore } from './managed-store.js';
import { TargetAddressPolicy, TargetAddressRefusedError } from './target-address-policy.js';
import { TargetClient } from './target-client.js';

/**
 * How long a delivery waits for the target's answer: the managed handler's longest execution
 * (90 s) and finalization (30 s), plus 15 s of transfer.
 */
export const DELIVERY_TIMEOUT_MILLIS = 90_000 + 30_000 + 15_000;

/** The most of a target's answer read (the managed handler's JSON summary is far smaller). */
export const MAX_DELIVERY_RESPONSE_BYTES = 16 * 1024;

/** Options of {@link ManagedDeliveries}. */
export interface ManagedDeliveriesOptions {
  /** The project's machine credential; without it, deliveries fail (`no machine credential`). */
  machineCredential: string | undefined;
  /** Where targets may be (public addresses unless private ones are allowed); default: public only. */
  addressPolicy?: TargetAddressPolicy;
  /** How long a delivery waits for the answer; default {@link DELIVERY_TIMEOUT_MILLIS}. */
  timeoutMillis?: number;
  /** The clock, ms since the epoch (the signature's timestamp). */
  now?: () => number;
}

/** The target's answer as JSON: `null` when it was over the limit or is not JSON. */
function parseAnswer(body: Buffer | undefined): unknown {
  if (body === undefined) return null;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The error of `error`'s cause chain that is a refused address, if any. */
function refusedAddress(error: unknown): TargetAddressRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof TargetAddressRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function failureOf(error: unknown, timedOut: boolean, closing: boolean, timeoutMillis: number): string {
  if (closing) return 'the server closed before the target answered';
  if (timedOut) return `the target did not answer within ${timeoutMillis} ms`;
  const refused = refusedAddress(error);
  if (refused !== undefined) {
    return `the target was not contacted: its host is or resolves to a ${refused.addressClass} address, and this server delivers only to public addresses (start it with allowPrivateTargets, svc serve --allow-private-targets, to allow private ones)`;
  }
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code))
      return `the target could not be reached (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return 'the target could not be reached';
}

/** A redirect answer is not followed: the delivery fails, naming the status (never the location). */
function redirectFailure(status: number): string {
  return `the target answered ${status}, a redirect, which deliveries do not follow: register the URL that answers itself`;
}

/** The background deliveries of one server. */
export class ManagedDeliveries {
  readonly #store: ManagedStore;
  readonly #client: TargetClient;
  readonly #signingKey: Buffer | undefined;
  readonly #timeoutMillis: number;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #closing = false;

  constructor(store: ManagedStore, options: ManagedDeliveriesOptions) {
    this.#store = store;
    this.#client = new TargetClient(options.addressPolicy ?? new TargetAddressPolicy());
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
    this.#client.close();
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
      const delivery = this.#store.requestOf(dispatchId);
      const body = JSON.stringify(delivery.body);
      const answer = await this.#client.post(delivery.url, body, {
        signal: controller.signal,
        maxBodyBytes: MAX_DELIVERY_RESPONSE_BYTES,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signManagedRequest(this.#signingKey, body, this.#now()),
        },
      });
      if (answer.status >= 300 && answer.status < 400) {
        this.#finish(dispatchId, { state: 'failed', failure: redirectFailure(answer.status) });
        return;
      }
      const response = dispatchAnswerOf(parseAnswer(answer.body));
      this.#finish(dispatchId, { state: 'delivered', status: answer.status, response });
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
