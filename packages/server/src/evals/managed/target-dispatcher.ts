/**
 * The HTTP client of deliveries: an undici `Agent` whose connector applies the target address
 * policy at connection time (a name through `lookup`, an IP literal before connecting), so the
 * address checked is the address connected to. undici's `request` follows no redirects.
 * @module
 */
import { Agent, buildConnector } from 'undici';
import type { TargetAddressPolicy } from './target-address-policy.js';

/** An undici dispatcher that connects only where `policy` allows. */
export function targetDispatcher(policy: TargetAddressPolicy): Agent {
  const connect = buildConnector({ lookup: policy.connectLookup });
  return new Agent({
    connect: (options, callback) => {
      const refused = policy.literalRefusal(options.hostname);
      if (refused !== undefined) {
        callback(refused, null);
        return;
      }
      connect(options, callback);
    },
  });
}
