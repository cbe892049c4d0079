// Where the browser tests and the viewer bench find Chromium: Debian's `chromium` package, driven
// by `playwright-core` (which brings no browser of its own). `scripts/ensure-chromium.mjs`
// installs it with apt-get when it can; a test that finds none fails with `CHROMIUM_MISSING`,
// never skips.
import { execFileSync } from 'node:child_process';

/** How to install Chromium, for the message of a test that finds none. */
export const CHROMIUM_MISSING =
  'Chromium is not installed, and the browser tests need it (they never skip). Install it with ' +
  '`sudo apt-get update && sudo apt-get install -y chromium` (Debian/Ubuntu), run ' +
  '`node scripts/ensure-chromium.mjs` as root (the test command does), or set SVC_CHROMIUM to the ' +
  'path of a Chromium or Chrome binary.';

/** The flags every run uses: headless, no sandbox (root in CI), nothing fetched from outside. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary: `SVC_CHROMIUM`, else `chromium` (or `chromium-browser`) on PATH; undefined when none. */
export function findChromium() {
  if (process.env.SVC_CHROMIUM) return process.env.SVC_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (path !== '') return path;
    } catch {
      // not on PATH: try the next name
    }
  }
  return undefined;
}

/**
 * Options for playwright-core's `chromium.launch()`: Debian's binary and the flags above. Each
 * launch runs on a new, empty profile directory (`--user-data-dir`) that playwright-core makes in
 * the temporary directory and removes when the browser closes. Throws with `CHROMIUM_MISSING`
 * when there is no Chromium.
 */
export function chromiumLaunchOptions() {
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error(CHROMIUM_MISSING);
  return { executablePath, headless: true, args: [...CHROMIUM_FLAGS] };
}

/**
 * How long a page action or wait may take (Playwright's default is 30 s). A browser test waits for
 * what the page reaches on its own; on a loaded 2-core machine that can take long, and only an
 * event that never comes should fail a test (the browser test files' own timeout is longer).
 */
export const BROWSER_WAIT_MILLIS = 150_000;

/** The browser test files' test and hook timeout: above `BROWSER_WAIT_MILLIS`. */
export const BROWSER_TEST_MILLIS = 180_000;

/**
 * Launches Chromium with `chromium` (playwright-core's, passed in: this script imports no
 * package) and the options above; its contexts and pages wait up to `BROWSER_WAIT_MILLIS`.
 */
export async function launchChromium(chromium) {
  const browser = await chromium.launch({ ...chromiumLaunchOptions(), timeout: BROWSER_WAIT_MILLIS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(BROWSER_WAIT_MILLIS);
    context.setDefaultNavigationTimeout(BROWSER_WAIT_MILLIS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(BROWSER_WAIT_MILLIS);
    page.setDefaultNavigationTimeout(BROWSER_WAIT_MILLIS);
    return page;
  };
  return browser;
}
