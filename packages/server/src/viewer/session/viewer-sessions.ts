/**
 * The viewer's browser sessions and one-time login links, held in memory by the reference
 * server: a restart ends every session (log in again). Session IDs and login tokens are 32 random
 * bytes (base64url); only their SHA-256 is kept, so the table holds nothing a browser could
 * present. A session records which key preset opened it (Read or Read and write), never the key.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { KeyPreset } from '../../auth/key-presets.js';

/** How long a session lasts from login: 12 hours. */
export const SESSION_TTL_MILLIS = 12 * 60 * 60 * 1000;

/** How long a one-time login link is valid: 15 minutes (and it works once). */
export const LOGIN_LINK_TTL_MILLIS = 15 * 60 * 1000;

/** A browser session. */
export interface ViewerSession {
  /** The preset of the key that opened it (a login link opens a Read session). */
  preset: Extract<KeyPreset, 'read' | 'read_write'>;
  /** The key's ID (never the key), or `login-link`. */
  keyId: string;
  /** Ms since epoch. */
  expiresAt: number;
}

function digest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Sessions and login tokens, in memory. */
export class ViewerSessions {
  readonly #sessions = new Map<string, ViewerSession>();
  readonly #loginTokens = new Map<string, number>();
  readonly #now: () => number;

  /** `now`: the clock (ms since epoch); tests inject one. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Opens a session; returns its ID (the cookie's value) and when it ends. */
  open(session: Omit<ViewerSession, 'expiresAt'>): { id: string; expiresAt: number } {
    this.#sweep();
    const id = newSecret();
    const expiresAt = this.#now() + SESSION_TTL_MILLIS;
    this.#sessions.set(digest(id), { ...session, expiresAt });
    return { id, expiresAt };
  }

  /** The live session of `id`, or `undefined` (unknown, ended or expired). */
  find(id: string | undefined): ViewerSession | undefined {
    if (id === undefined || id === '') return undefined;
    const key = digest(id);
    const session = this.#sessions.get(key);
    if (session === undefined) return undefined;
    if (session.expiresAt <= this.#now()) {
      this.#sessions.delete(key);
      return undefined;
    }
    return session;
  }

  /** Ends the session of `id` (nothing when there is none). */
  end(id: string | undefined): void {
    if (id !== undefined) this.#sessions.delete(digest(id));
  }

  /** A new one-time login token, valid {@link LOGIN_LINK_TTL_MILLIS}. */
  loginToken(): { token: string; expiresAt: number } {
    this.#sweep();
    const token = newSecret();
    const expiresAt = this.#now() + LOGIN_LINK_TTL_MILLIS;
    this.#loginTokens.set(digest(token), expiresAt);
    return { token, expiresAt };
  }

  /**
   * Uses up `token`: `valid` once for a token given by {@link loginToken} before it expires;
   * `expired` or `unknown` (never issued, or used already) otherwise.
   */
  redeem(token: string): 'valid' | 'expired' | 'unknown' {
    const key = digest(token);
    const expiresAt = this.#loginTokens.get(key);
    if (expiresAt === undefined) return 'unknown';
    this.#loginTokens.delete(key);
    return expiresAt > this.#now() ? 'valid' : 'expired';
  }

  /** Drops expired sessions and tokens (on each new one, so the tables stay small). */
  #sweep(): void {
    const now = this.#now();
    for (const [key, session] of this.#sessions) if (session.expiresAt <= now) this.#sessions.delete(key);
    for (const [key, expiresAt] of this.#loginTokens) if (expiresAt <= now) this.#loginTokens.delete(key);
  }
}
