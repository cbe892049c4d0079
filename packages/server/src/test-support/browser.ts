/**
 * Test support for the viewer's browser tests: Debian's Chromium driven by playwright-core,
 * launched with the project's flags and a new empty profile (`scripts/chromium.mjs`). Without
 * Chromium the launch fails with how to install it: browser tests never skip. Not part of the
 * package's public API.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { launchChromium as launchWithWaits } from '../../../../scripts/chromium.mjs';

/**
 * Launches headless Chromium (throws with the install instructions when there is none); its
 * contexts and pages wait up to `BROWSER_WAIT_MILLIS` (`scripts/chromium.mjs`).
 */
export function launchChromium(): Promise<Browser> {
  return launchWithWaits(chromium);
}

/**
 * Everything a page did that a recorded string must never make it do: dialogs (`alert`, …) and
 * requests to any origin but `origin`.
 */
export interface PageWatch {
  dialogs: string[];
  outside: string[];
}

/** Starts recording dialogs (dismissed) and requests to other origins than `origin`. */
export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { dialogs: [], outside: [] };
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && url !== 'about:blank') watch.outside.push(url);
  });
  return watch;
}

/** Saves a screenshot of `page` as `<name>.png` when `SVC_VIEWER_SCREENSHOTS` names a directory. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.SVC_VIEWER_SCREENSHOTS;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, `${name}.png`), fullPage: false });
}

/** The lowercase hex SHA-256 of what `url` answers, computed in the page with `crypto.subtle`. */
export function digestInPage(page: Page, url: string): Promise<string> {
  return page.evaluate(async (src) => {
    const response = await fetch(src, { credentials: 'same-origin' });
    const digest = await crypto.subtle.digest('SHA-256', await response.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }, url);
}
