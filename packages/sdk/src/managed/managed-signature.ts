/**
 * The check of the service's signature on a managed request. The service signs the body with a
 * key derived from the machine credential, so the credential never travels to the target:
 *
 * - signing key = HMAC-SHA256(key: the machine credential (UTF-8), data: `svc-run managed request v1`)
 * - `Svc-Signature: t=<ms since the epoch>,v1=<base64url HMAC-SHA256(signing key, "<t>.<body>")>`
 *
 * Signatures are compared in constant time; a timestamp more than five minutes from the handler's
 * clock is refused. A replay inside that window is refused by the service's claim.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'svc-signature';

/** How far a signature's timestamp may be from the handler's clock (5 minutes). */
export const SIGNATURE_TOLERANCE_MILLIS = 5 * 60 * 1000;

const SIGNING_LABEL = 'svc-run managed request v1';

/** The verdict on a request's signature. */
export type SignatureCheck = 'valid' | 'missing' | 'malformed' | 'stale' | 'mismatch';

/** The signing key derived from a machine credential. */
export function managedSigningKey(machineCredential: string): Buffer {
  return createHmac('sha256', Buffer.from(machineCredential, 'utf8')).update(SIGNING_LABEL, 'utf8').digest();
}

/** The header value signing `body` at `timestampMillis` (what the service sends; used by tests). */
export function signManagedBody(signingKey: Buffer, body: string, timestampMillis: number): string {
  const mac = createHmac('sha256', signingKey)
    .update(`${timestampMillis}.${body}`, 'utf8')
    .digest('base64url');
  return `t=${timestampMillis},v1=${mac}`;
}

/** Checks `header` against `body` (the exact bytes received, as UTF-8 text). */
export function checkManagedSignature(
  signingKey: Buffer,
  header: string | null,
  body: string,
  nowMillis: number,
): SignatureCheck {
  if (header === null || header === '') return 'missing';
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const match = /^\s*(t|v1)=([^\s,]*)\s*$/.exec(part);
    if (match === null) continue; // other schemes and versions are ignored
    if (match[1] === 't') {
      if (timestamp !== undefined || !/^\d{1,16}$/.test(match[2]!)) return 'malformed';
      timestamp = match[2];
    } else if (/^[A-Za-z0-9_-]{43}$/.test(match[2]!)) {
      signatures.push(Buffer.from(match[2]!, 'base64url'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return 'malformed';
  const expected = createHmac('sha256', signingKey).update(`${timestamp}.${body}`, 'utf8').digest();
  let matched = false;
  for (const signature of signatures) {
    if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
  }
  if (!matched) return 'mismatch';
  return Math.abs(nowMillis - Number(timestamp)) > SIGNATURE_TOLERANCE_MILLIS ? 'stale' : 'valid';
}
