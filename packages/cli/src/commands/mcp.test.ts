import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEnvFile } from '../env-file.js';
import { ExitCode } from '../exit-codes.js';
import { run } from '../program.js';
import { serviceEnv } from '../service-env.js';
import { CapturedOutput } from '../testing/captured-output.js';

const TOOLS =
  'search_traces, get_trace, get_span, verify_trace, get_experiment, get_experiment_item, list_datasets, list_scorers';
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function svc(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await run(['node', 'svc', ...args], { stdout, stderr, cwd: dir, env });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function envFile(name: string, variables: Record<string, string>): Promise<string> {
  const path = join(dir, name);
  await writeEnvFile(path, variables);
  return path;
}

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('svc mcp --check', () => {
  it('connects with the env file svc serve writes, lists the tools and exits 0', async () => {
    const file = await envFile('svc.env', serviceEnv(server));
    const result = await svc(['mcp', '--check', '--env-file', file]);
    expect(result).toEqual({
      code: ExitCode.Ok,
      stdout: `svc mcp: connected to ${server.origin}/mcp (svc 0.4.1) with SVC_MCP_KEY\n8 tools: ${TOOLS}\n`,
      stderr: '',
    });
    for (const key of Object.values(server.keys)) expect(result.stdout + result.stderr).not.toContain(key);
  });

  it('falls back to SVC_READ_KEY, and reads the environment without --env-file', async () => {
    const file = await envFile('read.env', { SVC_BASE_URL: server.origin, SVC_READ_KEY: server.keys.read });
    expect((await svc(['mcp', '--check', '--env-file', file])).stdout).toContain('with SVC_READ_KEY');
    const fromEnv = await svc(['mcp', '--check'], {
      SVC_BASE_URL: server.origin,
      SVC_MCP_KEY: server.keys.readWrite,
    });
    expect(fromEnv.code).toBe(ExitCode.Ok);
    expect(fromEnv.stdout).toContain('8 tools');
  });

  it('exits 1 with the reason when the service refuses the key', async () => {
    const file = await envFile('tracing.env', {
      SVC_BASE_URL: server.origin,
      SVC_MCP_KEY: server.keys.tracing,
    });
    const result = await svc(['mcp', '--check', '--env-file', file]);
    expect(result.code).toBe(ExitCode.Failure);
    expect(result.stderr).toBe(
      'error: the service refused the key (HTTP 403): A Tracing key cannot read traces over MCP: use the MCP Read key (SVC_MCP_KEY in the env file `svc serve` writes), or a Read or Read-and-write key.\n',
    );
    expect(result.stderr).not.toContain(server.keys.tracing);
  });

  it('exits 1 with the reason when the service is not there', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const file = await envFile('down.env', { SVC_BASE_URL: origin, SVC_MCP_KEY: server.keys.mcp });
    const result = await svc(['mcp', '--check', '--env-file', file]);
    expect(result.code).toBe(ExitCode.Failure);
    expect(result.stderr).toBe(
      `error: cannot reach ${origin}/mcp (ECONNREFUSED); is the service running (svc serve) at SVC_BASE_URL?\n`,
    );
  });

  it.each([
    [{ SVC_MCP_KEY: 'k' }, 'SVC_BASE_URL is not set in'],
    [{ SVC_BASE_URL: 'http://127.0.0.1:1/api', SVC_MCP_KEY: 'k' }, 'must be an http(s) origin only'],
    [{ SVC_BASE_URL: 'ftp://example.com', SVC_MCP_KEY: 'k' }, 'must be an http(s) origin only'],
    [{ SVC_BASE_URL: 'http://127.0.0.1:1' }, 'neither SVC_MCP_KEY nor SVC_READ_KEY is set in'],
  ])('exits 1 naming the variable for %j', async (variables, message) => {
    const file = await envFile('bad.env', variables);
    const result = await svc(['mcp', '--check', '--env-file', file]);
    expect(result.code).toBe(ExitCode.Failure);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(file);
  });

  it('exits 1 when the env file cannot be read', async () => {
    const result = await svc(['mcp', '--check', '--env-file', join(dir, 'missing.env')]);
    expect(result.code).toBe(ExitCode.Failure);
    expect(result.stderr).toBe(`error: cannot read the env file ${join(dir, 'missing.env')} (ENOENT)\n`);
  });

  it('is a usage error with an unknown option', async () => {
    expect((await svc(['mcp', '--port', '1'])).code).toBe(ExitCode.Usage);
  });

  it('documents both modes in its help', async () => {
    const help = await svc(['mcp', '--help']);
    expect(help.code).toBe(ExitCode.Ok);
    expect(help.stdout).toContain('--env-file <file>');
    expect(help.stdout).toContain('--check');
    expect(help.stdout).toContain('SVC_MCP_KEY (falling back to SVC_READ_KEY)');
  });
});
