import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from './error-codes.js';

// `ApiError` takes any string as its code (the http layer knows no feature's codes), so this test
// is what holds every code the service throws to the composed list: a misspelt or undeclared code
// fails here.
const SRC = dirname(fileURLToPath(import.meta.url));

function thrownCodes(): { code: string; at: string }[] {
  const files = readdirSync(SRC, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
  );
  return files.flatMap((entry) => {
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/new ApiError\(\s*\d{3},\s*'([^']+)'/g)].map((match) => ({
      code: match[1]!,
      at: relative(SRC, file),
    }));
  });
}

describe('error codes', () => {
  it('every code the service throws is a declared error code', () => {
    const thrown = thrownCodes();
    expect(thrown.length).toBeGreaterThan(50);
    expect(thrown.filter(({ code }) => !(API_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it('declares each code once', () => {
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });
});
