import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, KeyRing } from './key-ring.js';

describe('KeyRing', () => {
  const keys = { tracing: generateKey('tracing'), read: generateKey('read') };
  const ring = new KeyRing([
    { id: 'a', projectId: 'p', preset: 'tracing', hash: hashKey(keys.tracing) },
    { id: 'b', projectId: 'p', preset: 'read', hash: hashKey(keys.read) },
  ]);

  it('finds a key by its text and reports its preset', () => {
    expect(ring.find(keys.tracing)?.preset).toBe('tracing');
    expect(ring.find(keys.read)?.id).toBe('b');
  });

  it('does not find unknown keys, prefixes of keys or keys with extra text', () => {
    expect(ring.find('svc_tracing_unknown')).toBeUndefined();
    expect(ring.find(keys.tracing.slice(0, -1))).toBeUndefined();
    expect(ring.find(`${keys.tracing}x`)).toBeUndefined();
    expect(ring.find('')).toBeUndefined();
  });

  it('generates distinct keys with the preset prefix and 256 bits of randomness', () => {
    const a = generateKey('setup');
    const b = generateKey('setup');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^svc_setup_[A-Za-z0-9_-]{43}$/);
  });
});
