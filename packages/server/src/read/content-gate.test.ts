import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownValue, utf8Start } from './content-gate.js';

describe('utf8Start', () => {
  it('is the longest start of the text within the byte limit, never splitting a character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 0, max: 400 }),
        (text, limit) => {
          const start = utf8Start(text, limit);
          const whole = Buffer.from(text, 'utf8');
          expect(Buffer.byteLength(start, 'utf8')).toBeLessThanOrEqual(
            Math.max(limit, whole.length <= limit ? whole.length : 0),
          );
          expect(whole.subarray(0, Buffer.byteLength(start, 'utf8')).toString('utf8')).toBe(start);
          if (whole.length <= limit) expect(start).toBe(text);
          // One more character would not fit.
          const next = [...text.slice(start.length)][0];
          if (next !== undefined && start !== text) {
            expect(Buffer.byteLength(start + next, 'utf8')).toBeGreaterThan(limit);
          }
        },
      ),
    );
  });

  it('cuts a 50 MB value to 64 KiB, saying so', () => {
    const shown = shownValue('é'.repeat(25 * 1024 * 1024));
    expect(shown.size).toBe(50 * 1024 * 1024);
    expect(shown.truncated).toBe(true);
    expect(shown.value).toBe('é'.repeat(32 * 1024));
  });
});
