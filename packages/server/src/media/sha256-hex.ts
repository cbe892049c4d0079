/**
 * The name of a media file: the lowercase hex SHA-256 of its bytes.
 * @module
 */

/** 64 lowercase hex characters. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** True when `value` is 64 lowercase hex characters. */
export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}
