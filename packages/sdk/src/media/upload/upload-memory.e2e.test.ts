/**
 * Memory of large uploads: a 1 GB `path` attachment and a 200 MB base64 image inside a span
 * attribute upload with bounded memory. Each is recorded in a child process
 * (`__fixtures__/upload-memory-child.ts`, the SDK from source) that measures its own peak RSS
 * growth from just before recording to the end of the flush; the reference server runs here.
 *
 * Node only (it measures Node's RSS): listed in `NODE_ONLY` of `scripts/bun-sdk/vitest.config.mjs`.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportReport } from '../../export/export-report.js';
import { childResult, runSourceChild } from '../../test-support/source-child.js';

const MIB = 1024 * 1024;
/**
 * The bound on the child's RSS growth while it records, exports and uploads the file. What the
 * SDK may hold: two 1 MiB slice buffers per upload (reused, see `upload-body.ts`), the hashing
 * buffer, the socket's buffers, the span and its OTLP request (small: the file is a digest in it),
 * and the code of the upload path loaded for the first time — about 10 MiB measured. A decoded
 * copy of either file (150 MB, 1 GB) exceeds the bound many times over, and so do slices left as
 * garbage (V8 collects them only every ~64 MiB of such allocations: 65 MiB of growth measured).
 */
const MAX_RSS_GROWTH_MIB = 32;

const CHILD = fileURLToPath(new URL('./__fixtures__/upload-memory-child.ts', import.meta.url));

interface ChildResult {
  baseline: number;
  peak: number;
  report: ExportReport;
  traceId: string;
  sha256: string;
  size: number;
}

/** Runs the child with `input`; resolves with its result line. */
async function runChild(input: Record<string, unknown>): Promise<ChildResult> {
  return childResult<ChildResult>(await runSourceChild(CHILD, input, ['--expose-gc']));
}

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'svc-upload-memory-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectStored(result: ChildResult): Promise<void> {
  const holding = await server.files.holding(result.traceId, result.sha256);
  expect(holding?.readable).toBe(true);
  expect(holding?.file.size).toBe(result.size);
}

describe('upload memory', () => {
  it('uploads a 1 GB path attachment, hashed at creation and streamed from disk, within 32 MiB of RSS growth', async () => {
    const path = join(dir, 'one-gigabyte.bin');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 1_000_000_000); // a sparse file of zeros: no disk needed to read it
    closeSync(fd);
    const result = await runChild({ mode: 'path', origin: server.origin, key: server.keys.tracing, path });
    expect(result.size).toBe(1_000_000_000);
    expect(result.report).toMatchObject({ acceptedSpans: 1, uploadedValues: 1, uploadFallbacks: 0 });
    await expectStored(result);
    expect((result.peak - result.baseline) / MIB).toBeLessThan(MAX_RSS_GROWTH_MIB);
  }, 600_000);

  it('uploads a 200 MB base64 image from a span attribute too large to parse, within 32 MiB of RSS growth', async () => {
    const bytes = 150_000_009; // 200,000,012 base64 characters
    const result = await runChild({ mode: 'base64', origin: server.origin, key: server.keys.tracing, bytes });
    expect(result.size).toBe(bytes);
    expect(result.report).toMatchObject({ acceptedSpans: 1, uploadedValues: 1, uploadFallbacks: 0 });
    await expectStored(result);
    expect((result.peak - result.baseline) / MIB).toBeLessThan(MAX_RSS_GROWTH_MIB);
  }, 600_000);
});
