/**
 * The viewer ("Traces") showing a trace recorded through the SDK, in a real browser (Debian's
 * Chromium through playwright-core; `scripts/ensure-chromium.mjs` installs it, and without it
 * this test fails saying how to install it). One model call holds every kind of file the issue
 * names: an image, an audio clip, raw PCM (with and without a rate), a PDF, a web URL and an
 * external platform's media reference; the span also has a recorded file and a large value. Each
 * must be shown as the spec says: in place, as a link, or as "Held in"; the bytes behind each
 * image are the uploaded file's (SHA-256 computed in the page). A file whose upload failed shows
 * `Not uploaded`, one whose stored bytes were removed `Unavailable`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BLOBS_DIRECTORY, type RunningServer, startServer } from '@svc-run/server';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TEST_MILLIS, launchChromium } from '../../../scripts/chromium.mjs';
import { createSvc, type SvcClient } from './client/svc-client.js';
import { Attachment } from './media/attachment/attachment.js';

// Chromium on a loaded 2-core machine: waits for what the page reaches, not a time margin.
vi.setConfig({ testTimeout: BROWSER_TEST_MILLIS, hookTimeout: BROWSER_TEST_MILLIS });

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/media/${name}`, import.meta.url));
const cat = fixture('cat.png');
const dot = fixture('dot.png');
const wav = fixture('tone.wav');
const pcm = fixture('tone-24k.pcm');
const pdf = fixture('report.pdf');
const pcmNoRate = pcm.subarray(0, 240);
const answer = Buffer.from('It is sunny and 24 °C in Paris.\n', 'utf8');
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const WEB_URL = 'https://images.example.com/cats/42.jpg';
const LANGFUSE_REF =
  '@@@langfuseMedia:type=image/jpeg|id=cc48838a-3da8-4ca4-a007-2cf8df930e69|source=base64_data_uri@@@';
/** Over 1 MiB: uploaded whole, the record keeps a 16 KiB prefix. */
const LARGE = JSON.stringify({ document: 'lorem ipsum '.repeat(100_000) });

let server: RunningServer;
let svc: SvcClient;
let browser: Browser;
let context: BrowserContext;
const ids = { traceId: '', root: '', chat: '', load: '', failedTrace: '', failedSpan: '' };
const outside: string[] = [];

async function digestInPage(page: Page, url: string): Promise<string> {
  return page.evaluate(async (src) => {
    const response = await fetch(src, { credentials: 'same-origin' });
    const digest = await crypto.subtle.digest('SHA-256', await response.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }, url);
}

/** The `.file` block of the file of `sha256` in the selected span's detail. */
function fileBlock(page: Page, sha256: string) {
  return page.locator(`#detail .file[data-sha256="${sha256}"]`).first();
}

beforeAll(async () => {
  server = await startServer({ faultInjection: true });
  svc = createSvc({
    apiKey: server.keys.tracing,
    baseUrl: server.origin,
    serviceName: 'viewer-e2e',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  await svc.withSpan(
    'media turn',
    async (turn) => {
      ids.traceId = turn.traceId;
      ids.root = turn.spanId;
      await svc.model(
        {
          provider: 'openai',
          model: 'gpt-4o-audio',
          input: [
            {
              role: 'user',
              parts: [
                { type: 'text', content: 'What is in these files?' },
                { type: 'blob', modality: 'image', mime_type: 'image/png', content: cat.toString('base64') },
                { type: 'blob', modality: 'image', mime_type: 'image/png', content: dot.toString('base64') },
                { type: 'blob', modality: 'audio', mime_type: 'audio/wav', content: wav.toString('base64') },
                {
                  type: 'blob',
                  modality: 'audio',
                  mime_type: 'audio/pcm;rate=24000',
                  content: pcm.toString('base64'),
                },
                {
                  type: 'blob',
                  modality: 'audio',
                  mime_type: 'audio/pcm',
                  content: pcmNoRate.toString('base64'),
                },
                new Attachment({ data: pdf, contentType: 'application/pdf', name: 'report.pdf' }),
                { type: 'uri', modality: 'image', mime_type: 'image/jpeg', uri: WEB_URL },
                { type: 'text', content: LANGFUSE_REF },
              ],
            },
          ],
        },
        async (call) => {
          ids.chat = call.spanId;
          call.setResponse({
            output: [{ role: 'assistant', parts: [{ type: 'text', content: answer.toString('utf8') }] }],
            finishReasons: ['stop'],
            usage: { inputTokens: 120, outputTokens: 12 },
          });
        },
      );
      await svc.withSpan('load document', async (load) => {
        ids.load = load.spanId;
        load.span.setAttribute('output.value', LARGE);
      });
      turn.recordFile({
        role: 'output',
        data: answer,
        mediaType: 'text/plain',
        name: 'answer.txt',
        upload: true,
      });
    },
    { sessionId: 'viewer-session-1', userId: 'user-7' },
  );
  const report = await svc.flush();
  expect(report.uploadFallbacks).toBe(0);

  // A file whose upload fails after its record was exported: every reservation attempt answers 503.
  server.faults!.inject('blobs.reserve', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 3);
  const lost = randomBytes(2048);
  await svc.withSpan('failed upload', async (span) => {
    ids.failedTrace = span.traceId;
    ids.failedSpan = span.spanId;
    span.recordFile({ role: 'input', data: lost, mediaType: 'image/png', name: 'lost.png', upload: true });
  });
  const after = await svc.flush();
  expect(after.uploadFallbacks).toBe(1);
  server.faults!.clear();

  // The stored bytes of the dot are removed: the service can no longer read them.
  rmSync(join(server.dataDir, BLOBS_DIRECTORY, sha(dot).slice(0, 2), sha(dot)));

  browser = await launchChromium(chromium);
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  context.on('request', (request) => {
    if (!request.url().startsWith(`${server.origin}/`)) outside.push(request.url());
  });
  // The one-time login link `svc serve` and the demo print, as a person would open it.
  const page = await context.newPage();
  await page.goto(server.viewerLoginLink());
  await page.waitForURL(`${server.origin}/traces`);
  await page.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await svc?.shutdownSafe(2_000);
  await server?.close();
});

describe('the viewer shows a trace recorded through the SDK', () => {
  it('lists the trace with its root span, spans, tokens, session and user', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/traces?sessionId=viewer-session-1`);
    const row = page.locator('table.list tbody tr');
    expect(await row.count()).toBe(1);
    const text = await row.textContent();
    expect(text).toContain('media turn');
    expect(text).toContain('120 / 12');
    expect(text).toContain('viewer-session-1');
    expect(text).toContain('user-7');
    await row.locator('a').click();
    await page.waitForURL(`${server.origin}/traces/${ids.traceId}`);
    expect(await page.locator('#tree a.r').count()).toBe(3);
    await page.close();
  });

  it('shows every file in place with its digest, size and state', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/traces/${ids.traceId}?span=${ids.chat}`);
    await page.waitForSelector('.span-detail');

    // The image: shown, and the bytes behind it are the uploaded file's.
    const image = fileBlock(page, sha(cat)).locator('img');
    await expect
      .poll(() => image.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await digestInPage(page, (await image.getAttribute('src'))!)).toBe(sha(cat));
    for (const img of await page.locator('#detail img').all()) {
      const src = (await img.getAttribute('src'))!;
      const listed = (await img.getAttribute('data-sha256'))!;
      expect(await digestInPage(page, src)).toBe(listed);
    }

    // The audio clip and the raw PCM play: the browser reads their duration.
    const duration = (sha256: string) =>
      fileBlock(page, sha256)
        .locator('audio')
        .evaluate(
          (element) =>
            new Promise<number>((done) => {
              const audio = element as unknown as {
                duration: number;
                preload: string;
                onloadedmetadata: () => void;
                onerror: () => void;
                load(): void;
              };
              audio.onloadedmetadata = () => done(audio.duration);
              audio.onerror = () => done(-1);
              audio.preload = 'auto';
              audio.load();
            }),
        );
    expect(await duration(sha(wav))).toBeCloseTo(0.04, 2);
    expect(await duration(sha(pcm))).toBeCloseTo(pcm.length / 2 / 24_000, 3);
    // The PCM is served as WAV: a 44-byte header, then the samples as uploaded.
    const pcmSrc = (await fileBlock(page, sha(pcm)).locator('audio').getAttribute('src'))!;
    expect(pcmSrc).toContain('/wav?');
    const served = await page.evaluate(async (src) => {
      const bytes = new Uint8Array(await (await fetch(src)).arrayBuffer());
      return [...bytes];
    }, pcmSrc);
    const header = Buffer.from(served.slice(0, 44));
    expect(header.toString('ascii', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(24)).toBe(24_000);
    expect(header.readUInt16LE(22)).toBe(1);
    expect(Buffer.from(served.slice(44)).equals(pcm)).toBe(true);

    // Raw PCM without a rate: a download only.
    const noRate = fileBlock(page, sha(pcmNoRate));
    expect(await noRate.locator('audio').count()).toBe(0);
    expect(await noRate.locator('a.doc').count()).toBe(1);
    expect(await noRate.textContent()).toContain('audio/pcm');

    // The PDF: a link with its name, type and size, downloading the uploaded bytes.
    const document = fileBlock(page, sha(pdf));
    expect(await document.locator('a.doc').textContent()).toBe('report.pdf');
    const facts = await document.textContent();
    expect(facts).toContain('application/pdf');
    expect(facts).toContain(`${pdf.length} B`);
    const [download] = await Promise.all([page.waitForEvent('download'), document.locator('a.doc').click()]);
    expect(download.suggestedFilename()).toBe('report.pdf');
    expect(sha(readFileSync((await download.path())!))).toBe(sha(pdf));

    // Every stored file: its whole SHA-256 (shown shortened, whole in the title and when copied),
    // its size and its state.
    for (const bytes of [cat, wav, pcm, pcmNoRate, pdf]) {
      const block = fileBlock(page, sha(bytes));
      expect(await block.locator('code.sha').textContent()).toBe(sha(bytes));
      expect(await block.locator('code.sha').getAttribute('title')).toBe(`SHA-256 ${sha(bytes)}`);
      expect(await block.locator('button.copy').getAttribute('data-copy')).toBe(sha(bytes));
      expect(await block.locator('.state').textContent()).toBe('Stored');
      const shown = await block.locator('code.sha').evaluate((code) => {
        const box = code as unknown as { offsetWidth: number; scrollWidth: number };
        return box.offsetWidth < box.scrollWidth;
      });
      expect(shown).toBe(true); // shortened on screen
    }

    // Stored bytes that were removed: Unavailable, nothing to open.
    const gone = fileBlock(page, sha(dot));
    expect(await gone.locator('.state').textContent()).toBe('Unavailable');
    expect(await gone.locator('img, audio, video, a').count()).toBe(0);

    // The web URL: a link, never fetched; the media reference: its type and "Held in Langfuse".
    const link = page.locator(`#detail a[href="${WEB_URL}"]`);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    const reference = page.locator('#detail .remote.media-reference');
    expect(await reference.textContent()).toContain('Held in Langfuse');
    expect(await reference.textContent()).toContain('image/jpeg');
    expect(await reference.locator('a, img').count()).toBe(0);
    expect(outside).toEqual([]);
    await page
      .screenshot({
        path: join(process.env.SVC_VIEWER_SCREENSHOTS ?? '/tmp', 'sdk-media.png'),
        fullPage: true,
      })
      .catch(() => undefined);
    await page.close();
  });

  it('shows the recorded file below the messages and the large value under "Large values"', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/traces/${ids.traceId}?span=${ids.root}`);
    await page.waitForSelector('.span-detail');
    const recorded = fileBlock(page, sha(answer));
    expect(await recorded.locator('a.doc').textContent()).toBe('answer.txt');
    expect(await recorded.locator('.state').textContent()).toBe('Stored');
    expect(await page.locator('#detail h3', { hasText: 'Files' }).count()).toBe(1);

    await page.goto(`${server.origin}/traces/${ids.traceId}?span=${ids.load}`);
    await page.waitForSelector('.span-detail');
    const large = page.locator('#detail li.file', { hasText: 'output.value' });
    const text = (await large.textContent())!;
    expect(text).toContain('Stored');
    expect(text).toContain(`${Buffer.byteLength(LARGE).toLocaleString('en-US')} bytes`);
    const prefix = (await large.locator('pre.prefix').textContent())!;
    expect(LARGE.startsWith(prefix)).toBe(true);
    expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(16 * 1024);
    const whole = (await large.locator('a', { hasText: 'Download the whole value' }).getAttribute('href'))!;
    expect(await digestInPage(page, whole)).toBe(sha(LARGE));
    await page.close();
  });

  it('shows a file whose upload failed as Not uploaded, with nothing to open', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/traces/${ids.failedTrace}?span=${ids.failedSpan}`);
    await page.waitForSelector('.span-detail');
    const block = page.locator('#detail .file[data-state="not uploaded"]');
    expect(await block.count()).toBe(1);
    expect(await block.locator('.state').textContent()).toBe('Not uploaded');
    expect(await block.locator('.name').textContent()).toBe('lost.png');
    expect(await block.locator('img, audio, video, a').count()).toBe(0);
    await page.close();
  });
});
