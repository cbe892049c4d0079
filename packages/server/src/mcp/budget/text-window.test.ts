import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowEnd } from './text-window.js';

const unit = fc.constantFrom('a', '"', '\\', '\n', '\u0001', 'é', '😀', '\ud800', '\udc00');

describe('windowEnd', () => {
  it('gives the longest window whose JSON string fits the room, never splitting a surrogate pair', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 200 }), fc.nat(300), fc.nat(400), (units, start, room) => {
        const text = units.join('');
        const from = Math.min(start, text.length);
        const end = windowEnd(text, from, room);
        expect(end).toBeGreaterThanOrEqual(from);
        const window = text.slice(from, end);
        if (end > from) expect(JSON.stringify(window).length).toBeLessThanOrEqual(room);
        // Not in the middle of a pair: a high surrogate followed by its low one stay together.
        const last = text.charCodeAt(end - 1);
        const next = text.charCodeAt(end);
        if (end > from && end < text.length) {
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
        }
        // Longest: one more character (or pair) would not fit.
        if (end < text.length) {
          const pair = next >= 0xd800 && next <= 0xdbff && text.charCodeAt(end + 1) >= 0xdc00 ? 2 : 1;
          expect(JSON.stringify(text.slice(from, end + pair)).length).toBeGreaterThan(room);
        }
      }),
    );
  });
});
