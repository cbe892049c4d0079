import { describe, expect, it } from 'vitest';
import {
  allMessageFixtures,
  attributeText,
  blobKey,
  type MessageFixture,
} from '../../../../../fixtures/messages/index.js';
import { findDigestHolders } from './find-digest-holders.js';
import { parsePointer } from './json/json-pointer.js';
import { scanAttribute } from './scan-attribute.js';
import { scanStructured } from './scan-structured.js';
import { parsedValues, recordingDecide, sourceBytes } from './test-support.js';

function at(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of parsePointer(pointer) ?? []) {
    if (typeof node === 'string') node = JSON.parse(node);
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function scan(fixture: MessageFixture) {
  const recording = recordingDecide();
  if (fixture.attribute === 'body') {
    const result = scanStructured(fixture.value, 'body', recording.decide);
    return { ...recording, recorded: result.value };
  }
  const text = attributeText(fixture);
  const result = scanAttribute(fixture.attribute, text, recording.decide, fixture.spanAttributes);
  let recorded: unknown = result.value;
  try {
    recorded = JSON.parse(result.value);
  } catch {
    // a whole value that stayed plain text
  }
  return { ...recording, recorded };
}

describe('scanning the recorded-message fixtures', () => {
  it('has fixtures to scan', () => {
    expect(allMessageFixtures.length).toBeGreaterThan(10);
  });

  it.each(allMessageFixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { offered, found, recorded } = scan(fixture);
    expect(
      offered.map((file) => ({
        key: file.key,
        sha256: file.sha256,
        size: file.size,
        contentType: file.contentType,
        ...(file.name === undefined ? {} : { name: file.name }),
      })),
    ).toEqual(
      fixture.files.map((file) => ({
        key: blobKey(fixture, file),
        sha256: file.sha256,
        size: file.size,
        contentType: file.mediaType,
        ...(file.name === undefined ? {} : { name: file.name }),
      })),
    );
    // Reading back: every digest-form part restores, with the uploaded bytes, to the same file.
    const holders = parsedValues(recorded).flatMap((value) => findDigestHolders(value));
    expect(holders).toHaveLength(fixture.files.length);
    for (const holder of holders) {
      const file = found.find((candidate) => candidate.sha256 === holder.sha256)!;
      const again = recordingDecide('keep');
      scanStructured(holder.restore(sourceBytes(file.source), file.contentType), 'body', again.decide);
      expect(again.offered.map((offered) => [offered.sha256, offered.size])).toEqual([
        [file.sha256, file.size],
      ]);
    }
    const original = fixture.text === true ? fixture.value : JSON.parse(attributeText(fixture));
    for (const kept of fixture.kept ?? []) {
      expect(at(recorded, kept.pointer), kept.reason).toEqual(at(original, kept.pointer));
    }
  });
});
