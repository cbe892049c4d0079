import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { waitUntil } from '@svc-run/test-support';
import { describe, expect, it } from 'vitest';
import { bytesFile, bytesOf } from '../media/upload/__fixtures__/found-files.js';
import { UploadBudget } from '../media/upload/index.js';
import { type FileBudget, RecordFiles } from './record-files.js';

const image = bytesFile(bytesOf(10, 1), 'input.value#/image');
const chart = bytesFile(bytesOf(10, 2), 'input.value#/chart');
const report = bytesFile(bytesOf(10, 3), 'output.value#');
const recorded = bytesFile(bytesOf(10, 4), 'event:svc.file:x');

describe('RecordFiles', () => {
  it('keeps nothing for a record whose values hold no file', () => {
    const files = new RecordFiles();
    const span = {};
    files.setAttribute(span, 'input.value', []);
    files.setAttribute(span, 'output.value', []);
    expect(files.of(span)).toEqual([]);
  });

  it("replaces an attribute's files when its value is set again, keeping other attributes' and events' files", () => {
    const files = new RecordFiles();
    const span = {};
    files.setAttribute(span, 'input.value', [image]);
    files.setAttribute(span, 'output.value', [report]);
    files.addEvent(span, recorded);
    files.setAttribute(span, 'input.value', [chart]);
    expect(files.of(span).map((f) => f.file.key)).toEqual([
      'output.value#',
      'event:svc.file:x',
      'input.value#/chart',
    ]);
    // A later value without files takes the attribute's files away.
    files.setAttribute(span, 'input.value', []);
    files.setAttribute(span, 'output.value', []);
    expect(files.of(span)).toEqual([{ file: recorded, holder: { event: 'svc.file' }, charge: 0 }]);
  });

  it('gives the files of an emission to the record it emits, and to no later record', () => {
    const files = new RecordFiles();
    const [first, second] = [{}, {}];
    const emitted = [{ file: image, holder: { attribute: 'gen_ai.input.messages' } }];
    const result = files.emitting(emitted, () => {
      files.claim(first);
      files.claim(second);
      return 'emitted';
    });
    expect(result).toBe('emitted');
    expect(files.of(first)).toEqual([{ ...emitted[0], charge: 0 }]);
    expect(files.of(second)).toEqual([]);
    files.claim(second);
    expect(files.of(second)).toEqual([]);
  });
});

/** A 25-byte budget, as the uploader's: each test file holds 10 bytes. */
function smallBudget(): { budget: UploadBudget; holds: FileBudget } {
  const budget = new UploadBudget(25);
  const holds: FileBudget = {
    hold: (file) => budget.take(file.size),
    release: (charge) => budget.give(charge),
  };
  return { budget, holds };
}

describe('RecordFiles and the upload budget', () => {
  it('charges files when they are attached, and lets go of the bytes of those past the budget', () => {
    const { budget, holds } = smallBudget();
    const files = new RecordFiles(holds);
    const span = {};
    files.setAttribute(span, 'input.value', [image, chart]);
    files.addEvent(span, recorded);
    expect(budget.used).toBe(20);
    const [first, second, third] = files.of(span);
    expect([first?.charge, second?.charge, third?.charge]).toEqual([10, 10, undefined]);
    // Refused: its digest stays known, its bytes are no longer held.
    expect(third?.file.sha256).toBe(recorded.sha256);
    expect(third?.file.source).toEqual({ kind: 'bytes', bytes: new Uint8Array(0) });
    // Replacing an attribute's files gives their charges back first.
    files.setAttribute(span, 'input.value', [report]);
    expect(budget.used).toBe(10);
  });

  it('gives charges back when a record is dropped, when taken files are released, and for unclaimed emissions', () => {
    const { budget, holds } = smallBudget();
    const files = new RecordFiles(holds);
    const [dropped, exported] = [{}, {}];
    files.setAttribute(dropped, 'input.value', [image]);
    files.setAttribute(exported, 'input.value', [chart]);
    expect(budget.used).toBe(20);
    files.drop(dropped);
    expect(files.of(dropped)).toEqual([]);
    expect(budget.used).toBe(10);
    const taken = files.take(exported);
    expect(files.of(exported)).toEqual([]);
    expect(budget.used).toBe(10); // the taker's now
    files.release(taken);
    expect(budget.used).toBe(0);
    // An emission no log record claims holds nothing once it returns.
    files.emitting([{ file: report, holder: { attribute: 'gen_ai.input.messages' } }], () => {
      expect(budget.used).toBe(10);
    });
    expect(budget.used).toBe(0);
  });
});

/** A full garbage collection, in Node (through the V8 flag) and in Bun. */
function collectGarbage(): void {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun !== undefined) {
    bun.gc(true);
    return;
  }
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('RecordFiles and garbage collection', () => {
  it('gives the budget back for a record collected without being exported or dropped', async () => {
    const { budget, holds } = smallBudget();
    const files = new RecordFiles(holds);
    // A span never ended: nothing but the application held it, and it let go.
    (() => {
      files.setAttribute({}, 'input.value', [image, chart]);
    })();
    expect(budget.used).toBe(20);
    // Collected, then finalized in a later task: as many collections as that takes on this machine.
    await waitUntil(
      () => {
        collectGarbage();
        return budget.used === 0;
      },
      'the finalizer of the collected record to give its charges back',
      10,
    );
    expect(budget.used).toBe(0);
  });
});
