/**
 * A defect of the media scanner reaches the export path's guard (issue 13 item 21): the span is
 * still exported (as the content policy left it), its file is not uploaded, and the failure is
 * told — an export issue naming the cause, and an error on OpenTelemetry's `diag` — instead of the
 * scanner swallowing it and the file silently staying inline. The defect is simulated inside the
 * scanner: the step that writes a file's digest form throws.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CAT_PNG } from '../../../../fixtures/messages/media.js';
import { useMediaServer } from '../media/upload/__fixtures__/media-server.js';
import { useDiagLogger } from '../test-support/diag-logger.js';

vi.mock(import('../media/scan/engine/digest-form.js'), async (importOriginal) => {
  const defect = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'modality')");
  };
  return { ...(await importOriginal()), blobPartText: defect, digestMembersText: defect };
});

const media = useMediaServer();
const diagnostics = useDiagLogger();
afterAll(() => vi.restoreAllMocks());

describe('a defect of the media scanner', () => {
  it('reaches the guard: the span exports, the cause is in the issue and on diag', async () => {
    const svc = media.client();
    const input = [
      {
        role: 'user',
        parts: [{ type: 'blob', modality: 'image', mime_type: 'image/png', content: CAT_PNG.base64 }],
      },
    ];
    const traceId = await svc.withSpan('turn', async (span) => {
      await svc.model({ provider: 'openai', model: 'gpt-4o-mini', input }, () => 'a cat');
      return span.traceId;
    });
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 2, uploadedValues: 0, uploadFallbacks: 0 });
    const message =
      'the files of a record were not read: the media scan failed (TypeError: Cannot read properties of undefined (reading …)';
    expect(svc.transport.getIssues()).toEqual([
      expect.objectContaining({ signal: 'traces', kind: 'warning', count: 0, message }),
    ]);
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      [
        'error',
        'svc-run: the files of a record were not read: the media scan failed: TypeError: Cannot read properties of undefined (reading …',
      ],
    ]);
    expect(diagnostics[0]!.text).toMatch(/\nat .*digest-form|\nat /);
    // Exported as the content policy left it: the image inline, no svc.blobs entry.
    const stored = media.span(traceId, 'chat gpt-4o-mini');
    expect(stored.attributes['gen_ai.input.messages']).toBe(JSON.stringify(input));
    expect(stored.attributes).not.toHaveProperty('svc.blobs');
  });
});
