/**
 * Which runtimes the SDK runs on, checked by every client constructor before anything loads the
 * HTTP client (undici 8 fails to load on Node.js 20, with an unhelpful `TypeError` from inside it).
 * The bounds are the package's `engines` (`^22.19.0 || >=24`) and Bun 1.4.
 * @module
 */
import { SUPPORTED_RUNTIMES, UnsupportedRuntimeError } from '../errors/unsupported-runtime-error.js';

/** The fields of `process.versions` the check reads. */
export interface RuntimeVersions {
  node?: string;
  bun?: string;
}

function majorMinor(version: string): [number, number] {
  const [major = Number.NaN, minor = Number.NaN] = version
    .split('.')
    .map((part) => Number.parseInt(part, 10));
  return [major, minor];
}

/**
 * The error for the runtime `versions` describe (`process.versions` by default) when the SDK does
 * not support it; `undefined` when it does.
 */
export function unsupportedRuntime(
  versions: RuntimeVersions = process.versions,
): UnsupportedRuntimeError | undefined {
  let found: { runtime: 'node' | 'bun'; version: string } | undefined;
  if (typeof versions.bun === 'string') {
    const [major, minor] = majorMinor(versions.bun);
    if (!(major > 1 || (major === 1 && minor >= 4))) found = { runtime: 'bun', version: versions.bun };
  } else {
    const version = versions.node ?? 'unknown';
    const [major, minor] = majorMinor(version);
    if (!(major >= 24 || (major === 22 && minor >= 19))) found = { runtime: 'node', version };
  }
  if (found === undefined) return undefined;
  const name = found.runtime === 'bun' ? 'Bun' : 'Node.js';
  return new UnsupportedRuntimeError(
    `@svc-run/sdk needs ${SUPPORTED_RUNTIMES}; this process runs ${name} ${found.version}.`,
    found,
  );
}

let supported = false;

/**
 * Throws {@link UnsupportedRuntimeError} when this process runs on a runtime the SDK does not
 * support. Cheap after the first call that passes.
 */
export function requireSupportedRuntime(): void {
  if (supported) return;
  const error = unsupportedRuntime();
  if (error !== undefined) throw error;
  supported = true;
}
