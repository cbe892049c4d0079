import { describe, expect, it } from 'vitest';
import { RecordRejectedError } from '../content/record-rejected-error.js';
import type { ExportIssue } from '../options/svc-options.js';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { ExportAccounting } from './export-accounting.js';
import type { SendResult } from './otlp-http-sender.js';
import { MAX_BATCH_SIZE, QUEUE_CAPACITY, SignalPipeline } from './signal-pipeline.js';

const ack = (body: unknown): SendResult => ({
  kind: 'acknowledged',
  status: 200,
  body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)),
});

const diagnostics = useDiagLogger();

/** A pipeline whose sends answer from `answers` in turn (the last one repeats). */
function pipeline(answers: SendResult[], prepare: (n: number) => number = (n) => n) {
  const issues: ExportIssue[] = [];
  const accounting = new ExportAccounting((issue) => issues.push(issue));
  const batches: number[][] = [];
  let call = 0;
  const p = new SignalPipeline<number>({
    signal: 'traces',
    accounting,
    prepare,
    serialize: (records) => new TextEncoder().encode(JSON.stringify(records)),
    send: async (body) => {
      batches.push(JSON.parse(new TextDecoder().decode(body)) as number[]);
      return answers[Math.min(call++, answers.length - 1)]!;
    },
  });
  const total = () => {
    const r = accounting.report();
    return r.acceptedSpans + r.rejectedSpans + r.failedSpans + r.droppedSpans + r.pendingSpans;
  };
  return { p, accounting, issues, batches, total };
}

describe('SignalPipeline', () => {
  it('exports in batches of at most 512 and counts every record accepted', async () => {
    const { p, accounting, batches, total } = pipeline([ack({})]);
    for (let i = 0; i < 1_200; i++) p.add(i);
    await p.flush();
    expect(batches.map((b) => b.length)).toEqual([512, 512, 176]);
    expect(batches.flat()).toEqual(Array.from({ length: 1_200 }, (_, i) => i));
    expect(accounting.report()).toMatchObject({ acceptedSpans: 1_200, pendingSpans: 0 });
    expect(total()).toBe(1_200);
  });

  it('counts partial success as rejected, and raises a rejected issue without the service message', async () => {
    const { p, accounting, issues } = pipeline([
      ack({ partialSuccess: { rejectedSpans: '2', errorMessage: 'secret' } }),
    ]);
    for (let i = 0; i < 5; i++) p.add(i);
    await p.flush();
    expect(accounting.report()).toMatchObject({ acceptedSpans: 3, rejectedSpans: 2 });
    expect(issues).toEqual([
      {
        sequence: 1,
        signal: 'traces',
        kind: 'rejected',
        count: 2,
        message: 'the service rejected 2 of 5 spans',
      },
    ]);
    expect(JSON.stringify(issues)).not.toContain('secret');
  });

  it('treats a message with nothing rejected as a warning, which is not a failure', async () => {
    const { p, accounting, issues } = pipeline([ack({ partialSuccess: { errorMessage: 'slow down' } })]);
    p.add(1);
    await p.flush();
    expect(issues.map((i) => i.kind)).toEqual(['warning']);
    expect(accounting.failureSequence()).toBe(0);
    expect(accounting.report().acceptedSpans).toBe(1);
  });

  it.each([
    ['a body that is not JSON', ack('<html>')],
    ['more rejected than sent', ack({ partialSuccess: { rejectedSpans: 9 } })],
    ['a negative count', ack({ partialSuccess: { rejectedSpans: -1 } })],
    ['an array', ack([])],
    ['an oversized body', { kind: 'acknowledged', status: 200, body: undefined } as SendResult],
  ])('counts an invalid acknowledgement (%s) as failed with an invalid issue', async (_what, answer) => {
    const { p, accounting, issues } = pipeline([answer]);
    p.add(1);
    p.add(2);
    await p.flush();
    expect(accounting.report()).toMatchObject({ failedSpans: 2, acceptedSpans: 0, pendingSpans: 0 });
    expect(issues[0]).toMatchObject({ kind: 'invalid', count: 2, status: 200 });
  });

  it('counts a failed send as failed, with a message that tells how to fix an auth failure', async () => {
    const { p, accounting, issues } = pipeline([{ kind: 'failed', status: 403, cause: 'http' }]);
    p.add(1);
    await p.flush();
    expect(accounting.report().failedSpans).toBe(1);
    expect(issues[0]).toEqual({
      sequence: 1,
      signal: 'traces',
      kind: 'failed',
      count: 1,
      status: 403,
      message: '1 spans not exported: the key may not ingest (HTTP 403); use a Tracing key, not a Read key',
    });
  });

  it('counts a batch whose request failed on a defect as failed, naming the cause', async () => {
    const { p, accounting, issues } = pipeline([
      { kind: 'failed', cause: 'defect', code: 'TypeError: this.dispatch is not a function' },
    ]);
    p.add(1);
    await p.flush();
    expect(accounting.report()).toMatchObject({ failedSpans: 1, pendingSpans: 0 });
    expect(issues).toEqual([
      expect.objectContaining({
        kind: 'failed',
        message:
          '1 spans not exported: the export request failed unexpectedly (TypeError: this.dispatch is not a function)',
      }),
    ]);
  });

  it('counts a record the content policy rejects as rejected, and exports the others', async () => {
    const { p, accounting, issues, batches } = pipeline([ack({})], (n) => {
      if (n === 2) throw new RecordRejectedError('redactor-threw', 'attributes.x');
      return n;
    });
    for (const n of [1, 2, 3]) p.add(n);
    await p.flush();
    expect(batches).toEqual([[1, 3]]);
    expect(accounting.report()).toMatchObject({ acceptedSpans: 2, rejectedSpans: 1 });
    expect(issues[0]).toMatchObject({
      kind: 'rejected',
      count: 1,
      message: '1 span rejected: the redact callback threw for attributes.x',
    });
  });

  it('counts a record whose preparation fails unexpectedly as failed, names the cause, and exports the others', async () => {
    const { p, accounting, issues, batches, total } = pipeline([ack({})], (n) => {
      if (n === 2) throw new TypeError("Cannot read properties of undefined (reading 'traceId')");
      return n;
    });
    for (const n of [1, 2, 3]) p.add(n);
    await p.flush();
    expect(batches).toEqual([[1, 3]]);
    expect(accounting.report()).toMatchObject({ acceptedSpans: 2, failedSpans: 1, pendingSpans: 0 });
    expect(total()).toBe(3);
    expect(issues).toEqual([
      expect.objectContaining({
        kind: 'failed',
        count: 1,
        message:
          '1 span not exported: preparing it for export failed (TypeError: Cannot read properties of undefined (reading …)',
      }),
    ]);
    expect(diagnostics).toEqual([
      {
        level: 'error',
        text: expect.stringMatching(
          /^svc-run: 1 span not exported: preparing it for export failed: TypeError: Cannot read properties of undefined \(reading …\nat /,
        ),
      },
    ]);
  });

  it('says why a batch could not be serialized, on diag and in the issue', async () => {
    const issues: ExportIssue[] = [];
    const accounting = new ExportAccounting((issue) => issues.push(issue));
    const p = new SignalPipeline<number>({
      signal: 'logs',
      accounting,
      prepare: (n) => n,
      serialize: (records) => JSON.parse(JSON.stringify({ records, at: BigInt(records.length) })),
      send: async () => ack({}),
    });
    p.add(1);
    p.add(2);
    await p.flush();
    expect(accounting.report()).toMatchObject({ failedLogs: 2, pendingLogs: 0 });
    // The runtime's own words: V8 "Do not know how to serialize a BigInt", Bun "JSON.stringify
    // cannot serialize BigInt.".
    expect(issues).toEqual([
      expect.objectContaining({
        kind: 'failed',
        count: 2,
        message: expect.stringMatching(
          /^2 log records not exported: they could not be serialized as OTLP \(TypeError: [^()]*BigInt[^()]*\)$/,
        ),
      }),
    ]);
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      [
        'error',
        expect.stringMatching(
          /^svc-run: 2 log records not exported: OTLP serialization failed: TypeError: [^()]*BigInt/,
        ),
      ],
    ]);
  });

  it('drops records past the queue capacity (in-flight included), counts them exactly and reports them once', async () => {
    let release: (r: SendResult) => void = () => undefined;
    const issues: ExportIssue[] = [];
    const accounting = new ExportAccounting((i) => issues.push(i));
    const p = new SignalPipeline<number>({
      signal: 'logs',
      accounting,
      prepare: (n) => n,
      serialize: () => new Uint8Array([123, 125]),
      send: () => new Promise<SendResult>((resolve) => (release = resolve)),
    });
    const produced = 5_000;
    for (let i = 0; i < produced; i++) p.add(i);
    const report = accounting.report();
    expect(report.pendingLogs).toBe(QUEUE_CAPACITY);
    expect(report.droppedLogs).toBe(produced - QUEUE_CAPACITY);
    const flushed = p.flush();
    // Answer every batch as it is sent.
    for (let sent = 0; sent < QUEUE_CAPACITY / MAX_BATCH_SIZE; sent++) {
      await new Promise((r) => setImmediate(r));
      release(ack({}));
    }
    await flushed;
    const after = accounting.report();
    expect(after.acceptedLogs + after.droppedLogs).toBe(produced);
    expect(after.pendingLogs).toBe(0);
    const dropped = issues.filter((i) => i.kind === 'dropped');
    expect(dropped.reduce((n, i) => n + i.count, 0)).toBe(produced - QUEUE_CAPACITY);
    expect(dropped[0]?.message).toBe('2952 log records dropped: the export queue (2048 records) was full');
  });

  it('drops and counts records added after shutdown', async () => {
    const { p, accounting, total } = pipeline([ack({})]);
    p.add(1);
    await p.shutdown();
    p.add(2);
    expect(accounting.report()).toMatchObject({ acceptedSpans: 1, droppedSpans: 1 });
    expect(total()).toBe(2);
  });

  it('hands back every record it will not export: past the queue, after shutdown, rejected by prepare', async () => {
    const notExported: number[] = [];
    const accounting = new ExportAccounting();
    const p = new SignalPipeline<number>({
      signal: 'traces',
      accounting,
      prepare: (n) => {
        if (n === 1) throw new RecordRejectedError('redactor-threw', 'attributes.x');
        return n;
      },
      serialize: () => new Uint8Array([123, 125]),
      send: async () => ack({}),
      dropped: (n) => notExported.push(n),
    });
    for (let i = 0; i < QUEUE_CAPACITY + 2; i++) p.add(i);
    await p.shutdown();
    p.add(-1);
    expect(notExported.sort((a, b) => a - b)).toEqual([-1, 1, QUEUE_CAPACITY, QUEUE_CAPACITY + 1]);
    expect(accounting.report()).toMatchObject({ droppedSpans: 3, rejectedSpans: 1 });
  });

  it('keeps the latest 128 issues and delivers each to the callback even when it throws', async () => {
    const accounting = new ExportAccounting(() => {
      throw new Error('callback bug');
    });
    for (let i = 0; i < 130; i++) accounting.raise('traces', 'failed', 1, `issue ${i}`);
    const issues = accounting.issues();
    expect(issues).toHaveLength(128);
    expect(issues[0]?.message).toBe('issue 2');
    expect(accounting.failureSequence()).toBe(130);
    expect(accounting.failuresAfter(129).map((i) => i.sequence)).toEqual([130]);
  });
});
