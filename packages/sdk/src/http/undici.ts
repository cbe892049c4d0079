/**
 * The undici the SDK uses for HTTP, loaded on first use rather than when the SDK is imported:
 * undici 8 throws while loading on Node.js 20, so an application on an unsupported runtime still
 * imports the SDK and gets `UnsupportedRuntimeError`, naming the runtimes supported and the one
 * found, from the client constructor (and `createSvcSafe` a disabled client) instead.
 *
 * Loaded as `undici/index.js`, not `undici`: Bun answers the bare name with its own stand-in (an
 * `Agent` without `close()` or connect options, a fetch-based `request`); the path loads the real
 * package on every runtime. (undici 8 has no `exports` map, so the path resolves; revisit if a
 * later release adds one.)
 * @module
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici/index.js';
import { requireSupportedRuntime } from '../runtime/supported-runtime.js';

export type { Dispatcher } from 'undici/index.js';

let loaded: typeof Undici | undefined;

/** undici, loaded on the first call once the runtime is known to be supported. */
function undici(): typeof Undici {
  if (loaded === undefined) {
    requireSupportedRuntime();
    loaded = createRequire(import.meta.url)('undici/index.js') as typeof Undici;
  }
  return loaded;
}

/** undici's `request`. */
export const request = ((...args: Parameters<typeof Undici.request>) =>
  undici().request(...args)) as typeof Undici.request;

/** undici's `Agent` (`new Agent(options)` returns an instance of undici's own class). */
export type Agent = Undici.Agent;
export const Agent = function Agent(options?: Undici.Agent.Options): Undici.Agent {
  return new (undici().Agent)(options);
} as unknown as typeof Undici.Agent;
