import { describe, expect, it } from 'vitest';
import { isSpanIdHex, isTraceIdHex, readId } from './ids.js';

describe('IDs', () => {
  it('validates hex trace and span IDs', () => {
    expect(isTraceIdHex('4bf92f3577b34da6a3ce929d0e0e4736')).toBe(true);
    expect(isTraceIdHex('0'.repeat(32))).toBe(false);
    expect(isTraceIdHex('4BF92F3577B34DA6A3CE929D0E0E4736')).toBe(false);
    expect(isSpanIdHex('00f067aa0ba902b7')).toBe(true);
    expect(isSpanIdHex('00f067aa0ba902b')).toBe(false);
  });

  it('reads hex IDs of any case into lowercase hex', () => {
    expect(readId('4BF92F3577B34DA6A3CE929D0E0E4736', 16)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(readId('00f067aa0ba902b7', 8)).toBe('00f067aa0ba902b7');
  });

  it('reads absent IDs as empty and refuses wrong lengths, zero IDs, base64 and non-strings', () => {
    expect(readId(undefined, 8)).toBe('');
    expect(readId('', 16)).toBe('');
    expect(readId('00f067aa0ba902b7aa', 8)).toBeUndefined();
    expect(readId('0'.repeat(32), 16)).toBeUndefined();
    expect(readId(Buffer.from('00f067aa0ba902b7', 'hex').toString('base64'), 8)).toBeUndefined();
    expect(readId(12, 8)).toBeUndefined();
  });
});
