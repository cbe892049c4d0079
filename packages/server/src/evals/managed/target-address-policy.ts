/**
 * The rule on managed-target addresses, applied twice: when a target is registered (its URL's
 * host, or every address its name resolves to, must be public) and at every connection a delivery
 * opens (the addresses the name resolves to then, which are the addresses connected to: a name
 * that resolved to a public address at registration and to a private one later — DNS rebinding —
 * is refused). A server started with `allowPrivateTargets` skips both (local development, tests).
 * @module
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { ApiError } from '../../http/api-error.js';
import { nonPublicAddressClass, unbracketed } from './target-address.js';

/** A resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/**
 * Resolves a host name to every address it has; the default is the system resolver
 * (`dns.lookup` with `all`, as Node's own connections resolve). Tests pass their own to simulate
 * DNS answers, rebinding included.
 */
export type TargetLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Options of {@link TargetAddressPolicy}. */
export interface TargetAddressPolicyOptions {
  /** Allow loopback, private and other non-public addresses (off by default). */
  allowPrivateTargets?: boolean | undefined;
  /** How host names are resolved; default the system resolver. */
  lookup?: TargetLookup | undefined;
}

/** Thrown (at connection time) when a target's host is or resolves to a non-public address. */
export class TargetAddressRefusedError extends Error {
  override readonly name = 'TargetAddressRefusedError';
  /** The class of the refused address, for example `loopback`. */
  readonly addressClass: string;

  constructor(addressClass: string) {
    super(`the target's address is not public (${addressClass})`);
    this.addressClass = addressClass;
  }
}

const systemLookup: TargetLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The class of the first non-public address of `addresses`, if any. */
function firstRefusal(addresses: readonly ResolvedAddress[]): string | undefined {
  for (const { address } of addresses) {
    const refused = nonPublicAddressClass(address);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/** Where managed targets may be: public addresses, unless the server allows private ones. */
export class TargetAddressPolicy {
  readonly allowPrivateTargets: boolean;
  readonly #lookup: TargetLookup;

  constructor(options: TargetAddressPolicyOptions = {}) {
    this.allowPrivateTargets = options.allowPrivateTargets === true;
    this.#lookup = options.lookup ?? systemLookup;
  }

  /**
   * The class of the non-public address `host` (a URL's host: an IP literal, or a name) is or
   * resolves to; `undefined` when every address is public, when private targets are allowed, or
   * when the name does not resolve now (the connection checks it again when it does).
   */
  async refusalOf(host: string): Promise<string | undefined> {
    if (this.allowPrivateTargets) return undefined;
    const bare = unbracketed(host);
    if (isIP(bare) !== 0) return nonPublicAddressClass(bare);
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.#lookup(bare);
    } catch {
      return undefined;
    }
    return firstRefusal(addresses);
  }

  /**
   * Refuses (422: the URL keeps to the schema, the rule is the server's) registering a target whose
   * URL's host is, or resolves to, a non-public address.
   *
   * @throws ApiError 422 `invalid_request` naming the address class and how to allow it.
   */
  async checkRegistration(url: string): Promise<void> {
    const refused = await this.refusalOf(new URL(url).hostname);
    if (refused === undefined) return;
    throw new ApiError(
      422,
      'invalid_request',
      `url: the host is or resolves to a ${refused} address; managed targets must have public addresses (start the server with allowPrivateTargets, svc serve --allow-private-targets, to deliver to a local or private one).`,
    );
  }

  /**
   * The refusal of an IP literal the connector is about to connect to (Node resolves no name
   * then, so {@link connectLookup} is not called); `undefined` when allowed or not a literal.
   */
  literalRefusal(hostname: string): TargetAddressRefusedError | undefined {
    if (this.allowPrivateTargets) return undefined;
    const bare = unbracketed(hostname);
    if (isIP(bare) === 0) return undefined;
    const refused = nonPublicAddressClass(bare);
    return refused === undefined ? undefined : new TargetAddressRefusedError(refused);
  }

  /**
   * A `lookup` for `net.connect`: resolves the name with the policy's resolver and refuses it
   * when any of its addresses is not public, so the addresses checked are the ones connected to.
   * Answers in the form Node asked for (`all` or one address).
   */
  readonly connectLookup: LookupFunction = (hostname, options, callback) => {
    this.#lookup(hostname).then(
      (resolved) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const addresses =
          family === 4 || family === 6 ? resolved.filter((a) => a.family === family) : resolved;
        const refused = this.allowPrivateTargets ? undefined : firstRefusal(addresses);
        if (refused !== undefined) {
          callback(new TargetAddressRefusedError(refused), '', 0);
        } else if (addresses.length === 0) {
          const error = Object.assign(new Error(`no address found for the target's host`), {
            code: 'ENOTFOUND',
          });
          callback(error, '', 0);
        } else if (options.all) {
          callback(
            null,
            addresses.map((a) => ({ address: a.address, family: a.family })),
          );
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
