/**
 * The signature of the requests the service sends to managed targets. The body is signed with a
 * key derived from the project's machine credential, so the credential itself never travels to
 * the target:
 *
 * - signing key = HMAC-SHA256(key: the machine credential (UTF-8), data: `svc-run managed request v1`)
 * - `Svc-Signature: t=<ms since the epoch>,v1=<base64url HMAC-SHA256(signing key, "<t>.<body>")>`
 *
 * The SDK's handler (`@svc-run/sdk/managed`) checks the same, in constant time, and refuses a
 * timestamp more than five minutes away from its clock. A replay within that window is refused by
 * the claim: an execution is claimed once.
 * @module
 */
import { createHmac } from 'node:crypto';

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'svc-signature';

/** The label the signing key is derived with. */
const SIGNING_LABEL = 'svc-run managed request v1';

/** The signing key derived from a machine credential. */
export function managedSigningKey(machineCredential: string): Buffer {
  return createHmac('sha256', Buffer.from(machineCredential, 'utf8')).update(SIGNING_LABEL, 'utf8').digest();
}

/** The `Svc-Signature` header value of `body` sent at `timestampMillis`. */
export function signManagedRequest(signingKey: Buffer, body: string, timestampMillis: number): string {
  const signature = createHmac('sha256', signingKey)
    .update(`${timestampMillis}.${body}`, 'utf8')
    .digest('base64url');
  return `t=${timestampMillis},v1=${signature}`;
}
