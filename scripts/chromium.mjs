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
