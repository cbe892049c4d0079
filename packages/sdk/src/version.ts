/** This package's version, recorded as the instrumentation scope version. */
export const SDK_VERSION = '0.1.0';

/** The instrumentation scope name of the spans and logs the SDK records. */
export const SDK_SCOPE = '@svc-run/sdk';
