/**
 * The undici the SDK uses for HTTP. Imported as `undici/index.js`, not `undici`: Bun answers the
 * bare name with its own stand-in (an `Agent` without `close()` or connect options, a fetch-based
 * `request`); the path loads the real package on every runtime. (undici 8 has no `exports` map,
 * so the path resolves; revisit if a later release adds one.)
 * @module
 */
export { Agent, type Dispatcher, request } from 'undici/index.js';
