/**
 * The key that signs upload and download links. It is kept in the data directory (mode 0600), so
 * links handed out before a restart stay valid after it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from '@svc-run/io';

/** The file, in the data directory, holding the link-signing key (64 hex characters). */
export const LINK_SECRET_FILE = 'link-secret';

const SECRET_TEXT = /^[0-9a-f]{64}\n?$/;

/**
 * The link-signing key of the data directory, created (32 random bytes) when there is none.
 * Throws, saying how to fix it, when the file exists but does not hold a key.
 */
export async function loadLinkSecret(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, LINK_SECRET_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const secret = randomBytes(32);
    await writeFileDurably(path, `${secret.toString('hex')}\n`, { mode: 0o600 });
    return secret;
  }
  if (!SECRET_TEXT.test(text)) {
    throw new Error(
      `${LINK_SECRET_FILE} in ${dataDir} does not hold a link-signing key (64 hex characters); delete it to make a new one (links already handed out stop working).`,
    );
  }
  return Buffer.from(text.trim(), 'hex');
}
