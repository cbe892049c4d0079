import { describe, expect, it } from 'vitest';
import { bytesFile, bytesOf } from '../media/upload/__fixtures__/found-files.js';
import { RecordFiles } from './record-files.js';

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
    expect(files.of(span)).toEqual([{ file: recorded, holder: { event: 'svc.file' } }]);
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
    expect(files.of(first)).toEqual(emitted);
    expect(files.of(second)).toEqual([]);
    files.claim(second);
    expect(files.of(second)).toEqual([]);
  });
});
