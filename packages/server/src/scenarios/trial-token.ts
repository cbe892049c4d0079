/**
 * Trial tokens: the credential of one trial's world. A token is `svc_trial_` and 43 base64url
 * characters, derived from the trial's ID with an HMAC under the server's secret, so a replayed
 * start of the trial can answer it again without the token ever being stored; only its SHA-256 is
 * kept, to find the trial a request presents. A token calls its own world's tools and nothing
 * else: every other route takes project keys only (the key ring never holds a trial token), and
 * it is refused once its trial is sealed or expired.
 * @module
 */
import { createHash, createHmac } from 'node:crypto';

/** The prefix of trial tokens. */
export const TRIAL_TOKEN_PREFIX = 'svc_trial_';

/** A trial token's shape. */
export const TRIAL_TOKEN_PATTERN = /^svc_trial_[A-Za-z0-9_-]{43}$/;

/** Derives and recognizes trial tokens. */
export class TrialTokens {
  readonly #secret: Buffer;

  /** @param secret - The server's secret (32 bytes or more), kept in its data directory. */
  constructor(secret: Buffer) {
    // Domain separation: the same secret signs media links.
    this.#secret = createHmac('sha256', secret).update('svc trial tokens v1').digest();
  }

  /** The token of the trial `trialId`. */
  tokenOf(trialId: string): string {
    return `${TRIAL_TOKEN_PREFIX}${createHmac('sha256', this.#secret).update(trialId, 'utf8').digest('base64url')}`;
  }

  /** What is stored to find a token: its SHA-256 in hex. */
  static hashOf(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }
}
