/**
 * Project keys: generation, hashing and constant-time verification. Only SHA-256 hashes of keys
 * are stored; a presented key is hashed and compared against every stored hash with
 * `timingSafeEqual`, so the comparison takes the same time whichever key (if any) matches.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_PREFIXES, type KeyPreset } from './key-presets.js';

/** A stored key: its preset and the SHA-256 of the key text. */
export interface StoredKey {
  id: string;
  projectId: string;
  preset: KeyPreset;
  hash: Buffer;
}

/** SHA-256 of a key's text. */
export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A new random key of `preset`: its prefix and 32 random bytes in base64url. */
export function generateKey(preset: KeyPreset): string {
  return `${KEY_PREFIXES[preset]}${randomBytes(32).toString('base64url')}`;
}

/** Holds the stored key hashes and finds the key a request presents. */
export class KeyRing {
  readonly #keys: readonly StoredKey[];

  constructor(keys: readonly StoredKey[]) {
    this.#keys = keys;
  }

  /** The stored key matching `presented`, or `undefined`. Compares every hash in constant time. */
  find(presented: string): StoredKey | undefined {
    const candidate = hashKey(presented);
    let match: StoredKey | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(candidate, key.hash) && match === undefined) match = key;
    }
    return match;
  }
}
