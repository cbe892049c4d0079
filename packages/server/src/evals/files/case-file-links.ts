/**
 * Signed links of case files: the upload (PUT) link of an artifact and the download link of a
 * case file. Signed with the server's link key (HMAC-SHA256) under purposes of their own, so a
 * trace-file link is never valid here, nor the other way round.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The verdict on a presented link. */
export type CaseLinkCheck = 'valid' | 'forbidden' | 'expired';

type Purpose = 'eval-artifact-upload' | 'eval-case-file-download';

const EXPIRES = /^\d{1,16}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** Signs and checks case-file links. */
export class CaseFileLinks {
  readonly #secret: Buffer;

  constructor(secret: Buffer) {
    this.#secret = secret;
  }

  /** The query (`expires`, `signature`) of a link for `fields`, valid until `expiresAt` (ms). */
  sign(purpose: Purpose, fields: readonly string[], expiresAt: number): URLSearchParams {
    return new URLSearchParams({
      expires: String(expiresAt),
      signature: this.#signature(purpose, expiresAt, fields),
    });
  }

  /** Checks a presented query; the signature first, so only a genuine link is reported expired. */
  check(purpose: Purpose, fields: readonly string[], query: URLSearchParams, now: number): CaseLinkCheck {
    const expires = query.get('expires') ?? '';
    const signature = query.get('signature') ?? '';
    if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return 'forbidden';
    const expected = Buffer.from(this.#signature(purpose, Number(expires), fields), 'base64url');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'base64url'))) return 'forbidden';
    return now >= Number(expires) ? 'expired' : 'valid';
  }

  #signature(purpose: Purpose, expiresAt: number, fields: readonly string[]): string {
    return createHmac('sha256', this.#secret)
      .update(JSON.stringify([purpose, expiresAt, ...fields]))
      .digest('base64url');
  }
}
