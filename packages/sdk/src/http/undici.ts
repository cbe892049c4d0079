/**
 * The undici the SDK uses for HTTP. It is loaded while the SDK is imported, and only on a runtime
 * the SDK supports: undici 8 throws while loading on Node.js 20 (`TypeError: Cannot read
 * properties of undefined (reading 'bind')`). There, the SDK still imports, and the client
 * constructors throw `UnsupportedRuntimeError` naming the runtimes supported and the one found
 * (`createSvcSafe` gives a disabled client); so does any use of `request` or `Agent` below.
 *
 * Loaded as `undici/index.js`, not `undici`: Bun answers the bare name with its own stand-in (an
 * `Agent` without `close()` or connect options, a fetch-based `request`); the path loads the real
 * package on every runtime. (undici 8 has no `exports` map, so the path resolves; revisit if a
 * later release adds one.)
 * @module
 */
import type * as Undici from 'undici/index.js';
import { requireSupportedRuntime, unsupportedRuntime } from '../runtime/supported-runtime.js';

export type { Dispatcher } from 'undici/index.js';

const loaded: typeof Undici | undefined =
  unsupportedRuntime() === undefined ? await import('undici/index.js') : undefined;

/** undici; throws `UnsupportedRuntimeError` where it was not loaded. */
function undici(): typeof Undici {
  if (loaded === undefined) requireSupportedRuntime();
  return loaded!;
}

/** undici's `request`. */
export const request = ((...args: Parameters<typeof Undici.request>) =>
  undici().request(...args)) as typeof Undici.request;

/** undici's `Agent` (`new Agent(options)` returns an instance of undici's own class). */
export type Agent = Undici.Agent;
export const Agent = function Agent(options?: Undici.Agent.Options): Undici.Agent {
  return new (undici().Agent)(options);
} as unknown as typeof Undici.Agent;
