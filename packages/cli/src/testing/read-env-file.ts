/**
 * Test support: reads the env file `svc serve` wrote, with Node's own env-file parser.
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ENV_FILE } from '../service-env.js';

/** The env file of `dataDir`: its variables and its permission bits. */
export async function readEnvFile(dataDir: string): Promise<{ env: NodeJS.Dict<string>; mode: number }> {
  const path = join(dataDir, ENV_FILE);
  const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  return { env: parseEnv(text), mode: info.mode & 0o777 };
}
