// Types of scripts/chromium.mjs, for the TypeScript tests and benches that import it.

/** How to install Chromium, for the message of a test that finds none. */
export const CHROMIUM_MISSING: string;

/** The flags every run uses: headless, no sandbox (root in CI), nothing fetched from outside. */
export const CHROMIUM_FLAGS: readonly string[];

/** The Chromium binary: `SVC_CHROMIUM`, else `chromium` (or `chromium-browser`) on PATH; undefined when none. */
export function findChromium(): string | undefined;

/**
 * Options for playwright-core's `chromium.launch()`: Debian's binary and the flags (each launch
 * runs on a new empty profile directory). Throws with `CHROMIUM_MISSING` when there is no Chromium.
 */
export function chromiumLaunchOptions(): { executablePath: string; headless: true; args: string[] };

/** How long a page action or wait may take in the browser tests (Playwright's default is 30 s). */
export const BROWSER_WAIT_MILLIS: number;

/** The browser test files' test and hook timeout: above `BROWSER_WAIT_MILLIS`. */
export const BROWSER_TEST_MILLIS: number;

/** Launches Chromium with playwright-core's `chromium`; contexts and pages wait up to `BROWSER_WAIT_MILLIS`. */
export function launchChromium<B>(chromium: { launch(options: object): Promise<B> }): Promise<B>;
