import { describe, expect, it } from 'vitest';
import { LOGIN_LINK_TTL_MILLIS, SESSION_TTL_MILLIS, ViewerSessions } from './viewer-sessions.js';

describe('ViewerSessions', () => {
  it('opens sessions with random IDs that end after 12 hours, or when ended', () => {
    let now = 1_000_000;
    const sessions = new ViewerSessions(() => now);
    const a = sessions.open({ preset: 'read', keyId: 'k1' });
    const b = sessions.open({ preset: 'read_write', keyId: 'k2' });
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.expiresAt).toBe(now + SESSION_TTL_MILLIS);
    expect(sessions.find(a.id)).toMatchObject({ preset: 'read', keyId: 'k1' });
    now += SESSION_TTL_MILLIS - 1;
    expect(sessions.find(a.id)).toBeDefined();
    now += 1;
    expect(sessions.find(a.id)).toBeUndefined();
    sessions.end(b.id);
    expect(sessions.find(b.id)).toBeUndefined();
    expect(sessions.find(undefined)).toBeUndefined();
    expect(sessions.find('')).toBeUndefined();
  });

  it('redeems a login token once, within 15 minutes', () => {
    let now = 0;
    const sessions = new ViewerSessions(() => now);
    const { token } = sessions.loginToken();
    expect(sessions.redeem(token)).toBe('valid');
    expect(sessions.redeem(token)).toBe('unknown');
    const late = sessions.loginToken();
    now += LOGIN_LINK_TTL_MILLIS;
    expect(sessions.redeem(late.token)).toBe('expired');
    expect(sessions.redeem('never-issued')).toBe('unknown');
  });
});
