/**
 * `flush()` waits for the uploads queued before it as long as the spec's upload deadline allows
 * (six export timeouts plus 60 s), not OpenTelemetry's 30 s default of `TracerProvider.forceFlush`:
 * a 1 GB file at 8.3 MB/s is within the deadline and must not fail the flush.
 */
import { readFileSync } from 'node:fs';
import { waitUntil } from '@svc-run/test-support';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaServer } from '../media/upload/__fixtures__/media-server.js';

const media = useMediaServer();
const cat = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));

afterEach(() => {
  vi.useRealTimers();
});

describe('flush and slow uploads', () => {
  it('waits for an upload past 30 s of timers, then reports it uploaded', async () => {
    const svc = media.client({ timeoutMillis: 60_000 });
    // The upload's PUT is held until the test lets it go: only the clock moves meanwhile.
    media.server.faults!.inject('blobs.upload', { kind: 'hang' });
    await svc.withSpan('turn', async () => {
      await svc.model(
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          input: [
            {
              role: 'user',
              parts: [
                { type: 'blob', modality: 'image', mime_type: 'image/png', content: cat.toString('base64') },
              ],
            },
          ],
        },
        () => 'ok',
      );
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const flushed = svc.flush().then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    );
    await waitUntil(() => media.server.faults!.held('blobs.upload') === 1, 'the PUT to arrive');
    // 40 s pass on the clock while the upload is in flight: within the upload deadline (6 × 60 s + 60 s).
    await vi.advanceTimersByTimeAsync(40_000);
    vi.useRealTimers();
    media.server.faults!.release('blobs.upload');
    const result = await flushed;
    expect(result).toMatchObject({ report: { acceptedSpans: 2, uploadedValues: 1, uploadFallbacks: 0 } });
  });
});
