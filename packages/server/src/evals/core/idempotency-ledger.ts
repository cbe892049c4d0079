/**
 * Idempotency of the registry's mutations. Every mutation carries an `Idempotency-Key`; the first
 * successful answer is kept with a fingerprint of the request (method, path and canonical JSON
 * body). The same key with the same request returns that first answer; the same key with another
 * request is refused (409 `idempotency_key_reused`). Failed requests keep nothing, so a caller
 * may fix the request and reuse its key.
 * @module
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { canonicalJson } from './canonical-json.js';

/** A kept answer. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

/** The fingerprint of a request: SHA-256 over method, path and canonical JSON body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`, 'utf8')
    .digest('hex');
}

/** The first answer of each idempotency key. Call inside the mutation's transaction. */
export class IdempotencyLedger {
  readonly #find: StatementSync;
  readonly #save: StatementSync;

  constructor(db: DatabaseSync) {
    this.#find = db.prepare('SELECT fingerprint, status, body FROM eval_idempotency WHERE key = ?');
    this.#save = db.prepare(
      'INSERT INTO eval_idempotency (key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /** The answer kept for `key`, if any. */
  find(key: string): KeptAnswer | undefined {
    const row = this.#find.get(key) as { fingerprint: string; status: number; body: string } | undefined;
    return row === undefined
      ? undefined
      : { fingerprint: row.fingerprint, status: Number(row.status), body: row.body };
  }

  /** Keeps the first answer of `key`. */
  save(key: string, answer: KeptAnswer, createdAt: string): void {
    this.#save.run(key, answer.fingerprint, answer.status, answer.body, createdAt);
  }
}
