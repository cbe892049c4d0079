import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkManagedSignature,
  managedSigningKey,
  SIGNATURE_TOLERANCE_MILLIS,
  signManagedBody,
} from './managed-signature.js';

const key = managedSigningKey('svc_machine_credential');
const body = '{"type":"svc.managed.execution","executionId":"0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a"}';
const now = 1_750_000_000_000;

describe('managed request signatures', () => {
  it('derives the signing key from the credential, so the credential itself is never the key', () => {
    const expected = createHmac('sha256', 'svc_machine_credential')
      .update('svc-run managed request v1')
      .digest();
    expect(key.equals(expected)).toBe(true);
    expect(signManagedBody(key, body, now)).toBe(
      `t=${now},v1=${createHmac('sha256', expected).update(`${now}.${body}`).digest('base64url')}`,
    );
  });

  it('accepts a signature of the exact body within five minutes either way', () => {
    expect(checkManagedSignature(key, signManagedBody(key, body, now), body, now)).toBe('valid');
    const edge = now - SIGNATURE_TOLERANCE_MILLIS;
    expect(checkManagedSignature(key, signManagedBody(key, body, edge), body, now)).toBe('valid');
    expect(checkManagedSignature(key, signManagedBody(key, body, now + 60_000), body, now)).toBe('valid');
  });

  it('accepts any of several v1 signatures and ignores other schemes', () => {
    const header = signManagedBody(key, body, now);
    const other = signManagedBody(managedSigningKey('svc_machine_old'), body, now).split(',')[1];
    expect(checkManagedSignature(key, `${header},${other},v0=abc`, body, now)).toBe('valid');
  });

  it('refuses a missing, malformed, stale, foreign or body-altered signature', () => {
    const header = signManagedBody(key, body, now);
    expect(checkManagedSignature(key, null, body, now)).toBe('missing');
    expect(checkManagedSignature(key, '', body, now)).toBe('missing');
    expect(checkManagedSignature(key, 'v1=abc', body, now)).toBe('malformed');
    expect(checkManagedSignature(key, `t=soon,${header.split(',')[1]}`, body, now)).toBe('malformed');
    expect(checkManagedSignature(key, `t=${now}`, body, now)).toBe('malformed');
    expect(checkManagedSignature(key, `t=${now},t=${now},${header.split(',')[1]}`, body, now)).toBe(
      'malformed',
    );
    expect(
      checkManagedSignature(key, signManagedBody(key, body, now - SIGNATURE_TOLERANCE_MILLIS - 1), body, now),
    ).toBe('stale');
    expect(checkManagedSignature(managedSigningKey('svc_machine_other'), header, body, now)).toBe('mismatch');
    expect(checkManagedSignature(key, header, `${body} `, now)).toBe('mismatch');
    // A genuine signature with another timestamp does not verify.
    expect(checkManagedSignature(key, header.replace(`t=${now}`, `t=${now + 1}`), body, now)).toBe(
      'mismatch',
    );
  });
});
