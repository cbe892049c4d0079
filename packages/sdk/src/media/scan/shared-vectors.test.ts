/**
 * The shared scanner vectors of `fixtures/scanner-vectors`, run against the TypeScript scanner.
 * The same file runs in the Python suite (`python/tests/test_scanner_vectors.py`): a vector added
 * there runs here too, and fails the suite whose scanner disagrees. Expectations come from the
 * spec's rules (see `generate.mjs`), never from running a scanner.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blobEntry } from '../../export/media-export.js';
import type { FileDecision, FoundFile } from '../media-types.js';
import { scanAttribute } from './scan-attribute.js';
import { scanStructured } from './scan-structured.js';

type Text = string | { join: [string, number][] };

interface VectorFile {
  key: string;
  sha256: string;
  size: number;
  content_type: string;
  modality: string;
  source: string;
  name?: string;
}

interface Vector {
  name: string;
  rule: string;
  kind: 'attribute' | 'structured';
  attribute: string;
  context?: Record<string, unknown>;
  input: unknown;
  decisions?: FileDecision[];
  expect: { output: unknown; files: VectorFile[]; blobs: string[] };
}

const VECTOR_FIELDS = new Set([
  'name',
  'rule',
  'kind',
  'attribute',
  'context',
  'input',
  'decisions',
  'expect',
]);
const FILE_FIELDS = new Set(['key', 'sha256', 'size', 'content_type', 'modality', 'source', 'name']);

const vectors = (
  JSON.parse(
    readFileSync(new URL('../../../../../fixtures/scanner-vectors/vectors.json', import.meta.url), 'utf8'),
  ) as { vectors: Vector[] }
).vectors;

function expand(text: Text): string {
  return typeof text === 'string' ? text : text.join.map(([piece, count]) => piece.repeat(count)).join('');
}

function described(file: FoundFile): VectorFile {
  return {
    key: file.key,
    sha256: file.sha256,
    size: file.size,
    content_type: file.contentType,
    modality: file.modality,
    source: file.source.kind,
    ...(file.name === undefined ? {} : { name: file.name }),
  };
}

describe('shared scanner vectors', () => {
  it('has vectors with unique names', () => {
    const names = vectors.map((vector) => vector.name);
    expect(names.length).toBeGreaterThanOrEqual(50);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    // A vector using a field this runner does not know fails instead of being half-checked.
    expect(Object.keys(vector).filter((key) => !VECTOR_FIELDS.has(key))).toEqual([]);
    expect(Object.keys(vector.expect).sort()).toEqual(['blobs', 'files', 'output']);
    for (const file of vector.expect.files) {
      expect(Object.keys(file).filter((key) => !FILE_FIELDS.has(key))).toEqual([]);
    }
    const decisions = vector.decisions ?? [];
    const offered: FoundFile[] = [];
    const answered: FileDecision[] = [];
    const decide = (file: FoundFile): FileDecision => {
      const decision = decisions[offered.length] ?? 'upload';
      offered.push(file);
      answered.push(decision);
      return decision;
    };
    if (vector.kind === 'attribute') {
      const text = expand(vector.input as Text);
      const result = scanAttribute(vector.attribute, text, decide, vector.context);
      const output = expand(vector.expect.output as Text);
      // Compared as strings without a diff of megabytes when they differ.
      expect(result.value === output, 'output text').toBe(true);
      expect(result.changed).toBe(output !== text);
    } else {
      expect(vector.kind).toBe('structured');
      const result = scanStructured(vector.input, vector.attribute, decide);
      expect(JSON.stringify(result.value)).toBe(JSON.stringify(vector.expect.output));
      expect(result.changed).toBe(JSON.stringify(vector.input) !== JSON.stringify(vector.expect.output));
    }
    expect(offered.map(described)).toEqual(vector.expect.files);
    expect(offered.filter((_, i) => answered[i] === 'upload').map(blobEntry)).toEqual(vector.expect.blobs);
  });
});
