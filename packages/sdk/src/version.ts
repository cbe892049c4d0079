/**
 * The SDK's name and version as recorded on its spans and logs. The version is read from this
 * package's `package.json` (inlined by the build), so the two cannot differ.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** This package's version, recorded as the instrumentation scope version. */
export const SDK_VERSION: string = manifest.version;

/** The instrumentation scope name of the spans and logs the SDK records. */
export const SDK_SCOPE = '@svc-run/sdk';
