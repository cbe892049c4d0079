import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENV_FILE } from './service-env.js';
import { SHUTDOWN_SIGNALS } from './shutdown-signal.js';
import { acceptsConnections } from './testing/port-probe.js';
import { readEnvFile } from './testing/read-env-file.js';
import { type CliProcess, spawnCli } from './testing/spawn-cli.js';

let cwd: string;
let cli: CliProcess | undefined;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'svc-bin-'));
});

afterEach(async () => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
    cli.child.kill('SIGKILL');
    await cli.exit;
  }
  cli = undefined;
  await rm(cwd, { recursive: true, force: true });
});

describe('the svc executable', () => {
  it.each(SHUTDOWN_SIGNALS)('serves until %s, then exits 0 with clean output', async (signal) => {
    cli = spawnCli(['serve', '--port', '0'], cwd);
    const [, origin] = await cli.stdout.waitFor(/^svc serve: listening on (\S+)$/m);
    const dataDir = join(cwd, '.svc-data');
    await cli.stdout.waitFor(/^Press Ctrl-C to stop\.$/m);
    expect(cli.stdout.text).toContain(`Env file: ${join(dataDir, ENV_FILE)}`);

    const { env, mode } = await readEnvFile(dataDir);
    expect(mode).toBe(0o600);
    expect(env.SVC_BASE_URL).toBe(origin);
    const response = await fetch(`${origin}/api/v1/projects/current`, {
      headers: { Authorization: `Bearer ${env.SVC_API_KEY}` },
    });
    expect(response.status).toBe(200);

    cli.child.kill(signal);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(await acceptsConnections(origin!)).toBe(false);

    // No ExperimentalWarning for node:sqlite, nor anything else, on stderr; no key anywhere.
    expect(cli.stderr.text).toBe('');
    expect(cli.stdout.text).toMatch(/Shutting down\.\nStopped\.\n$/);
    const stored = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
      keys: Record<string, string>;
    };
    for (const key of Object.values(stored.keys)) expect(cli.stdout.text).not.toContain(key);
  });

  it('exits 2 with a message on stderr for an unknown flag', async () => {
    cli = spawnCli(['serve', '--bogus'], cwd);
    expect(await cli.exit).toEqual({ code: 2, signal: null });
    expect(cli.stdout.text).toBe('');
    expect(cli.stderr.text).toBe("error: unknown option '--bogus'\n(add --help for usage)\n");
  });

  it("prints package.json's version and exits 0 for --version", async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    cli = spawnCli(['--version'], cwd);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout.text).toBe(`${version}\n`);
    expect(cli.stderr.text).toBe('');
  });

  it('exits 2 with a message on stderr for the help of an unknown command', async () => {
    cli = spawnCli(['bogus', '--help'], cwd);
    expect(await cli.exit).toEqual({ code: 2, signal: null });
    expect(cli.stdout.text).toBe('');
    expect(cli.stderr.text).toBe("error: unknown command 'bogus'\n(add --help for usage)\n");
  });

  it('prints the usage and exits 0 for --help', async () => {
    cli = spawnCli(['--help'], cwd);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout.text).toMatch(/^Usage: svc \[options\] \[command\]/);
    expect(cli.stderr.text).toBe('');
  });
});
