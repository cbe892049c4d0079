import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../exit-codes.js';
import { run } from '../program.js';
import { CapturedOutput } from '../testing/captured-output.js';
import { readEnvFile } from '../testing/read-env-file.js';

// Issue 13 item 2: managed targets at non-public addresses are refused unless `svc serve` is
// given --allow-private-targets (off by default).
let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'svc-serve-targets-'));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** Runs `svc serve ...args`, registers a target at `url` with the Read-and-write key, stops; the status. */
async function registerUnder(args: string[], url: string): Promise<{ status: number; message?: string }> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const stop = new AbortController();
  const dataDir = join(cwd, 'data');
  const exit = run(['node', 'svc', 'serve', '--port', '0', '--data', dataDir, ...args], {
    stdout,
    stderr,
    cwd,
    signal: stop.signal,
  });
  await Promise.race([
    stdout.waitFor(/^svc serve: listening on (\S+)$/m),
    exit.then((code) => {
      throw new Error(`svc serve exited early with ${code}: ${stderr.text}`);
    }),
  ]);
  try {
    const { env } = await readEnvFile(dataDir);
    const response = await fetch(`${env.SVC_BASE_URL}/api/v1/evals/managed-targets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env.SVC_RW_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ name: 'Local agent', url }),
    });
    const body = (await response.json()) as { error?: { message: string } };
    return { status: response.status, ...(body.error ? { message: body.error.message } : {}) };
  } finally {
    stop.abort();
    expect(await exit).toBe(ExitCode.Ok);
  }
}

describe('svc serve --allow-private-targets', () => {
  it('refuses a loopback managed target by default', async () => {
    const answer = await registerUnder([], 'http://127.0.0.1:3000/api/svc-managed');
    expect(answer.status).toBe(422);
    expect(answer.message).toContain('svc serve --allow-private-targets');
  });

  it('accepts it with the flag', async () => {
    const answer = await registerUnder(['--allow-private-targets'], 'http://127.0.0.1:3000/api/svc-managed');
    expect(answer.status).toBe(200);
  });

  it('lists the flag in the help', async () => {
    const stdout = new CapturedOutput();
    const code = await run(['node', 'svc', 'serve', '--help'], { stdout, stderr: new CapturedOutput(), cwd });
    expect(code).toBe(ExitCode.Ok);
    expect(stdout.text).toContain('--allow-private-targets');
    expect(stdout.text).toContain('Managed targets must have public addresses');
  });
});
