import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_SECRET_FILE, loadLinkSecret } from './link-secret.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-secret-'));
  dirs.push(dir);
  return dir;
}

describe('loadLinkSecret', () => {
  it('creates a 32-byte key in a private file once, and reads the same key afterwards', async () => {
    const dir = tempDir();
    const secret = await loadLinkSecret(dir);
    expect(secret.length).toBe(32);
    const path = join(dir, LINK_SECRET_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(`${secret.toString('hex')}\n`);
    expect(await loadLinkSecret(dir)).toEqual(secret);
    expect(await loadLinkSecret(tempDir())).not.toEqual(secret);
  });

  it('refuses a file that does not hold a key, saying how to fix it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, LINK_SECRET_FILE), 'not a key');
    await expect(loadLinkSecret(dir)).rejects.toThrow(
      `${LINK_SECRET_FILE} in ${dir} does not hold a link-signing key (64 hex characters); delete it to make a new one (links already handed out stop working).`,
    );
  });
});
