import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../exit-codes.js';
import { run } from '../program.js';
import { ENV_FILE } from '../service-env.js';
import { SHUTDOWN_SIGNALS } from '../shutdown-signal.js';
import { CapturedOutput } from '../testing/captured-output.js';
import { acceptsConnections } from '../testing/port-probe.js';
import { readEnvFile } from '../testing/read-env-file.js';

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'svc-serve-'));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

interface Serving {
  origin: string;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  stop: AbortController;
  exit: Promise<number>;
}

/** Runs `svc serve ...args` in-process until it prints its origin. */
async function startServe(args: string[], options: { signal?: boolean } = {}): Promise<Serving> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const stop = new AbortController();
  const exit = run(['node', 'svc', 'serve', ...args], {
    stdout,
    stderr,
    cwd,
    signal: options.signal === false ? undefined : stop.signal,
  });
  const [, origin] = await Promise.race([
    stdout.waitFor(/^svc serve: listening on (\S+)$/m),
    exit.then((code) => {
      throw new Error(`svc serve exited early with ${code}: ${stderr.text}`);
    }),
  ]);
  return { origin: origin!, stdout, stderr, stop, exit };
}

async function credentialsOf(dataDir: string): Promise<string[]> {
  const stored = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
    keys: Record<string, string>;
  };
  return Object.values(stored.keys);
}

describe('svc serve', () => {
  it('serves, writes a 0600 env file that authenticates, prints no key, and stops on abort', async () => {
    const dataDir = join(cwd, 'data');
    const serving = await startServe(['--port', '0', '--data', dataDir]);
    const envPath = join(dataDir, ENV_FILE);

    const { env, mode } = await readEnvFile(dataDir);
    expect(mode).toBe(0o600);
    expect(Object.keys(env).sort()).toEqual([
      'SVC_API_KEY',
      'SVC_BASE_URL',
      'SVC_MACHINE_KEY',
      'SVC_MCP_KEY',
      'SVC_READ_KEY',
      'SVC_RW_KEY',
    ]);
    expect(env.SVC_BASE_URL).toBe(serving.origin);
    expect(serving.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.SVC_API_KEY).toMatch(/^svc_tracing_/);
    expect(env.SVC_READ_KEY).toMatch(/^svc_read_/);
    expect(env.SVC_RW_KEY).toMatch(/^svc_rw_/);
    expect(env.SVC_MACHINE_KEY).toMatch(/^svc_machine_/);
    // The MCP Read key: a key of the Read preset of its own, which the tool server accepts.
    expect(env.SVC_MCP_KEY).toMatch(/^svc_read_/);
    expect(env.SVC_MCP_KEY).not.toBe(env.SVC_READ_KEY);
    const mcp = await fetch(`${env.SVC_BASE_URL}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${env.SVC_MCP_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expect(serving.stdout.text).toContain(`MCP tool server: ${serving.origin}/mcp`);

    const response = await fetch(`${env.SVC_BASE_URL}/api/v1/projects/current`, {
      headers: { Authorization: `Bearer ${env.SVC_API_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ slug: 'local' });

    expect(serving.stdout.text).toContain(serving.origin);
    expect(serving.stdout.text).toContain(`Env file: ${envPath}`);
    const keys = await credentialsOf(dataDir); // all six, the setup credential included
    expect(keys).toHaveLength(6);
    for (const key of keys) {
      expect(serving.stdout.text).not.toContain(key);
      expect(serving.stderr.text).not.toContain(key);
    }

    serving.stop.abort();
    expect(await serving.exit).toBe(ExitCode.Ok);
    expect(serving.stdout.text).toMatch(/Shutting down\.\nStopped\.\n$/);
    expect(serving.stderr.text).toBe('');
    expect(await acceptsConnections(serving.origin)).toBe(false);
  });

  it('prints a one-time login link that opens the viewer once, without a key in it', async () => {
    const dataDir = join(cwd, 'data');
    const serving = await startServe(['--port', '0', '--data', dataDir]);
    const [, link] = await serving.stdout.waitFor(/^Viewer: (\S+)$/m);
    expect(link).toMatch(new RegExp(`^${serving.origin}/login/link\\?token=[A-Za-z0-9_-]{43}$`));
    expect(serving.stdout.text).toContain(`log in at ${serving.origin}/login with SVC_READ_KEY`);
    for (const key of await credentialsOf(dataDir)) expect(link).not.toContain(key);

    const opened = await fetch(link!, { redirect: 'manual' });
    expect(opened.status).toBe(200);
    const cookie = /^(svc_viewer_session=[^;]+);/.exec(opened.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeDefined();
    const list = await fetch(`${serving.origin}/traces`, {
      headers: { cookie: cookie! },
      redirect: 'manual',
    });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('<h1>Traces</h1>');
    // Single use.
    expect((await fetch(link!, { redirect: 'manual' })).status).toBe(403);

    serving.stop.abort();
    expect(await serving.exit).toBe(ExitCode.Ok);
  });

  it('keeps the keys across a restart on the same data directory', async () => {
    const dataDir = join(cwd, 'data');
    const first = await startServe(['--port', '0', '--data', dataDir]);
    const before = (await readEnvFile(dataDir)).env;
    first.stop.abort();
    expect(await first.exit).toBe(ExitCode.Ok);

    const second = await startServe(['--port', '0', '--data', dataDir]);
    const after = (await readEnvFile(dataDir)).env;
    expect(after.SVC_BASE_URL).toBe(second.origin);
    expect(after.SVC_API_KEY).toBe(before.SVC_API_KEY);
    expect(after.SVC_READ_KEY).toBe(before.SVC_READ_KEY);
    expect(after.SVC_RW_KEY).toBe(before.SVC_RW_KEY);
    expect(after.SVC_MACHINE_KEY).toBe(before.SVC_MACHINE_KEY);
    expect(after.SVC_MCP_KEY).toBe(before.SVC_MCP_KEY);
    const response = await fetch(`${second.origin}/api/v1/projects/current`, {
      headers: { Authorization: `Bearer ${before.SVC_API_KEY}` },
    });
    expect(response.status).toBe(200);

    second.stop.abort();
    expect(await second.exit).toBe(ExitCode.Ok);
  });

  it('uses .svc-data in the working directory by default', async () => {
    const serving = await startServe(['--port', '0']);
    const dataDir = join(cwd, '.svc-data');
    expect(serving.stdout.text).toContain(`Env file: ${join(dataDir, ENV_FILE)}`);
    expect((await readEnvFile(dataDir)).env.SVC_BASE_URL).toBe(serving.origin);
    serving.stop.abort();
    expect(await serving.exit).toBe(ExitCode.Ok);
  });

  // Without `io.signal`, serve listens for the process's signals. `process.emit` calls those
  // listeners without sending a real signal to the test process.
  it.each(SHUTDOWN_SIGNALS)('without a stop signal, shuts down cleanly on %s', async (name) => {
    const before = process.listenerCount(name);
    const serving = await startServe(['--port', '0', '--data', join(cwd, 'data')], { signal: false });
    expect(process.listenerCount(name)).toBe(before + 1);

    process.emit(name, name);

    expect(await serving.exit).toBe(ExitCode.Ok);
    expect(serving.stdout.text).toMatch(/Stopped\.\n$/);
    expect(await acceptsConnections(serving.origin)).toBe(false);
    expect(process.listenerCount(name)).toBe(before);
  });

  it('prints one request log line per request (never a key), and none with --quiet', async () => {
    const dataDir = join(cwd, 'data');
    for (const quiet of [false, true]) {
      const serving = await startServe(['--port', '0', '--data', dataDir, ...(quiet ? ['--quiet'] : [])]);
      const { env } = await readEnvFile(dataDir);
      for (const key of [env.SVC_API_KEY, 'svc_read_not-a-key']) {
        const res = await fetch(`${serving.origin}/api/v1/projects/current?key=${key}`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        await res.arrayBuffer();
      }
      if (!quiet) {
        await serving.stdout.waitFor(/ 401 .*error=unauthorized\n/);
        const lines = serving.stdout.text.split('\n').filter((line) => line.includes(' GET '));
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(/^\S+Z GET \/api\/v1\/projects\/current 200 [\d.]+ms in=0 out=\d+$/);
        expect(lines[1]).toMatch(
          /^\S+Z GET \/api\/v1\/projects\/current 401 [\d.]+ms in=0 out=\d+ error=unauthorized$/,
        );
        for (const key of await credentialsOf(dataDir)) expect(serving.stdout.text).not.toContain(key);
      }
      serving.stop.abort();
      expect(await serving.exit).toBe(ExitCode.Ok);
      if (quiet) expect(serving.stdout.text).not.toContain(' GET ');
    }
  });

  it('refuses a second serve on the same data directory with exit code 3, leaving its env file as it was', async () => {
    const dataDir = join(cwd, 'data');
    const first = await startServe(['--port', '0', '--data', dataDir]);
    const envPath = join(dataDir, ENV_FILE);
    const envBefore = await readFile(envPath);
    const { mtimeMs } = await stat(envPath);

    const stdout = new CapturedOutput();
    const stderr = new CapturedOutput();
    const code = await run(['node', 'svc', 'serve', '--port', '0', '--data', dataDir], {
      stdout,
      stderr,
      cwd,
      signal: new AbortController().signal,
    });
    expect(code).toBe(ExitCode.DataDirectoryInUse);
    expect(code).toBe(3);
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe(
      `error: cannot start the server: The data directory ${dataDir} is in use by another svc server (process ${process.pid}, listening on ${first.origin}, since ${/since (\S+)\)/.exec(stderr.text)?.[1]}). One server at a time may use a data directory: stop that server, or use another data directory.\n`,
    );
    expect((await readFile(envPath)).equals(envBefore)).toBe(true);
    expect((await stat(envPath)).mtimeMs).toBe(mtimeMs);
    expect((await readEnvFile(dataDir)).env.SVC_BASE_URL).toBe(first.origin);

    first.stop.abort();
    expect(await first.exit).toBe(ExitCode.Ok);
  });

  describe('when the port is taken', () => {
    let blocker: Server;

    beforeEach(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    });

    afterEach(async () => {
      await new Promise((resolve) => blocker.close(resolve));
    });

    it('fails with exit code 1 and a message on stderr', async () => {
      const { port } = blocker.address() as { port: number };
      const stdout = new CapturedOutput();
      const stderr = new CapturedOutput();
      const dataDir = join(cwd, 'data');
      const code = await run(['node', 'svc', 'serve', '--port', String(port), '--data', dataDir], {
        stdout,
        stderr,
        cwd,
        signal: new AbortController().signal,
      });

      expect(code).toBe(ExitCode.Failure);
      expect(stdout.text).toBe('');
      expect(stderr.text).toMatch(/^error: cannot start the server: listen EADDRINUSE.*\n$/);
      expect(existsSync(join(dataDir, ENV_FILE))).toBe(false);
      // No project and no keys were made: the next start is a first start.
      expect(existsSync(join(dataDir, 'credentials.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'svc.sqlite'))).toBe(false);
    });
  });
});
