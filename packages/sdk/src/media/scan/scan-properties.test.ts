import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FoundFile } from '../media-types.js';
import { findDigestHolders } from './find-digest-holders.js';
import { scanAttribute } from './scan-attribute.js';
import { scanStructured } from './scan-structured.js';
import { documents } from './test-generators.js';
import { parsedValues, sha256Hex, sourceBytes } from './test-support.js';

/** Brackets nested in `text`, counting those inside strings too (so never less than the JSON's). */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  for (const c of text) {
    if (c === '[' || c === '{') max = Math.max(max, ++depth);
    if (c === ']' || c === '}') depth--;
  }
  return max;
}

describe('scanner properties', () => {
  it('changes generated JSON only inside the replaced ranges', () => {
    fc.assert(
      fc.property(documents, (piece) => {
        fc.pre(depthOf(piece.input) <= 10);
        const offered: FoundFile[] = [];
        const result = scanAttribute('gen_ai.input.messages', piece.input, (file) => {
          offered.push(file);
          return 'upload';
        });
        expect(result.value).toBe(piece.output);
        expect(result.changed).toBe(piece.files > 0);
        expect(offered).toHaveLength(piece.files);
      }),
      { numRuns: 300 },
    );
  });

  it('restores the uploaded bytes into every digest-form part', () => {
    fc.assert(
      fc.property(documents, (piece) => {
        fc.pre(depthOf(piece.input) <= 10);
        const uploaded = new Map<string, { bytes: Buffer; contentType: string }>();
        const result = scanAttribute('gen_ai.input.messages', piece.input, (file) => {
          uploaded.set(file.sha256, { bytes: sourceBytes(file.source), contentType: file.contentType });
          return 'upload';
        });
        const holders = parsedValues(JSON.parse(result.value)).flatMap((value) => findDigestHolders(value));
        expect(holders).toHaveLength(piece.files);
        for (const holder of holders) {
          const file = uploaded.get(holder.sha256)!;
          expect(sha256Hex(file.bytes)).toBe(holder.sha256);
          const restored = holder.restore(file.bytes, file.contentType);
          const again: FoundFile[] = [];
          scanStructured(restored, 'body', (found) => {
            again.push(found);
            return 'keep';
          });
          expect(again).toHaveLength(1);
          expect(sourceBytes(again[0]!.source).equals(file.bytes)).toBe(true);
          expect([again[0]!.sha256, again[0]!.size]).toEqual([holder.sha256, holder.size]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary strings, malformed JSON or arbitrary values', () => {
    const mutated = fc
      .tuple(documents, fc.nat(), fc.nat(3), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([piece, at, cut, insert]) => {
        const position = at % (piece.input.length + 1);
        return piece.input.slice(0, position) + insert + piece.input.slice(position + cut);
      });
    const decide = (): 'upload' => 'upload';
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.json(), mutated), (text) => {
        const result = scanAttribute('input.value', text, decide);
        if (!result.changed) expect(result.value).toBe(text);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.anything({ withTypedArray: true, withMap: true, withBigInt: true }), (value) => {
        expect(() => scanStructured(value, 'body', decide)).not.toThrow();
        expect(() => findDigestHolders(value)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
