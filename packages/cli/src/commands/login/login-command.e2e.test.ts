/**
 * `svc login`, end to end: the built `svc` in a child process against the reference server.
 * Expectations from the issue: an accepted Read-and-write key is stored with the origin in an env
 * file of mode 0600 that git ignores (added to `.gitignore` inside a work tree, and said so); a
 * tracing or Read key is refused with the reason; nothing echoes the key (hidden input on a
 * terminal, `--key-stdin` for scripts); `svc eval` then uses the file without `--env-file`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv, promisify } from 'node:util';
import type { ScorerDefinition } from '@svc-run/sdk/evals';
import { describe, expect, it } from 'vitest';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
} from '../../testing/eval-service.js';
import { runBuiltCli } from '../../testing/spawn-built-cli.js';
import { runBuiltCliInTerminal } from '../../testing/terminal/run-in-terminal.js';

const git = promisify(execFile);
const service = useEvalService();

async function gitWorkTree(prefix: string): Promise<string> {
  const directory = await service.directory(prefix);
  await git('git', ['init', '--quiet', directory]);
  return directory;
}

async function envFileOf(cwd: string) {
  const path = join(cwd, '.svc', 'svc.env');
  const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  return { env: parseEnv(text), mode: info.mode & 0o777 };
}

function login(cwd: string, key: string, ...more: string[]) {
  return runBuiltCli(['login', '--origin', service.server.origin, '--key-stdin', ...more], cwd, {
    input: `${key}\n`,
  });
}

describe('svc login', () => {
  it('stores an accepted key 0600 in .svc/svc.env, adds it to .gitignore in a work tree, and svc eval uses it', async () => {
    const cwd = await gitWorkTree('login');
    const key = service.server.keys.readWrite;
    const end = await login(cwd, key);
    expect(end.code).toBe(0);
    expect(end.stdout + end.stderr).not.toContain(key);
    expect(await envFileOf(cwd)).toEqual({
      env: { SVC_BASE_URL: service.server.origin, SVC_API_KEY: key },
      mode: 0o600,
    });
    expect(end.stdout).toContain(
      `Wrote ${join(cwd, '.svc', 'svc.env')} (mode 0600): SVC_BASE_URL, SVC_API_KEY.`,
    );
    expect(end.stdout).toContain(`Added /.svc/svc.env to ${join(cwd, '.gitignore')}, so git ignores it.`);
    expect(await readFile(join(cwd, '.gitignore'), 'utf8')).toContain('\n/.svc/svc.env\n');
    // git itself says so.
    await git('git', ['check-ignore', '--quiet', '.svc/svc.env'], { cwd });

    // Again: already ignored, the .gitignore unchanged.
    const gitignore = await readFile(join(cwd, '.gitignore'), 'utf8');
    const again = await login(cwd, key);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('git ignores it already.');
    expect(await readFile(join(cwd, '.gitignore'), 'utf8')).toBe(gitignore);

    // svc eval reads it when --env-file is not given.
    const set = await createEvalSet(service.client, 'login', [
      { externalKey: 'one', inputs: { answer: 'yes' }, expected: 'yes' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', {
      kind: 'builtin',
      builtin: 'includes',
      metrics: [{ name: 'includes', type: 'boolean' }],
    } satisfies ScorerDefinition);
    const evaluated = await runBuiltCli(
      ['eval', '--set', set.slug, '--scorer', scorer.slug, '--command', TEST_AGENT_COMMAND],
      cwd,
    );
    expect(evaluated.stdout).toContain('Totals: 1 passed, 0 failed, 0 errored, 0 pending, of 1');
    expect(evaluated.code).toBe(0);
  });

  it('outside a git work tree, writes no .gitignore', async () => {
    const cwd = await service.directory('login-plain');
    const end = await login(cwd, service.server.keys.readWrite);
    expect(end.code).toBe(0);
    expect(end.stdout).not.toContain('gitignore');
    await expect(stat(join(cwd, '.gitignore'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await envFileOf(cwd)).mode).toBe(0o600);
  });

  it.each([
    ['tracing', 'it is a tracing key (or a setup credential), which cannot use the evaluation registry'],
    ['read', 'it is a Read key, which reads the registry but cannot write to it'],
    ['unknown', 'it is not a key of a project of this service, or it was revoked (HTTP 401)'],
  ] as const)(
    'refuses a %s key with the reason, writing nothing and never echoing it',
    async (kind, reason) => {
      const cwd = await gitWorkTree('refused');
      const key =
        kind === 'unknown'
          ? 'svc_rw_NotAKeyOfThisServiceAtAll0000000000000000000'
          : service.server.keys[kind === 'tracing' ? 'tracing' : 'read'];
      const end = await login(cwd, key);
      expect(end.code).toBe(1);
      expect(end.stderr).toBe(
        `error: the service at ${service.server.origin} refused the key: ${reason}${kind === 'unknown' ? '.' : '. Use a Read-and-write key of the project.'}\n`,
      );
      expect(end.stdout + end.stderr).not.toContain(key);
      await expect(stat(join(cwd, '.svc', 'svc.env'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(stat(join(cwd, '.gitignore'))).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  it('asks for the key with hidden input on a terminal: the key never shows', async () => {
    const cwd = await service.directory('login-terminal');
    const key = service.server.keys.readWrite;
    const end = await runBuiltCliInTerminal(['login'], cwd, [
      ['Service origin: ', service.server.origin],
      ['Read-and-write key (hidden): ', key],
    ]);
    expect(end.shown).toContain('Read-and-write key (hidden): ');
    expect(end.shown).toContain(`Logged in to ${service.server.origin}`);
    expect(end.shown).not.toContain(key);
    expect(end.code).toBe(0);
    expect((await envFileOf(cwd)).env.SVC_API_KEY).toBe(key);
  });

  it("offers svc serve's local server as the origin, from its env file in .svc-data", async () => {
    const cwd = await service.directory('login-local');
    await mkdir(join(cwd, '.svc-data'));
    await writeFile(join(cwd, '.svc-data', 'svc.env'), `SVC_BASE_URL=${service.server.origin}\n`);
    const key = service.server.keys.readWrite;
    const scripted = await runBuiltCli(['login', '--key-stdin'], cwd, { input: `${key}\n` });
    expect(scripted.code).toBe(0);
    expect((await envFileOf(cwd)).env.SVC_BASE_URL).toBe(service.server.origin);

    // On a terminal: offered as the default, taken with Enter.
    const asked = await runBuiltCliInTerminal(['login'], cwd, [
      [`Service origin [${service.server.origin}]: `, ''],
      ['Read-and-write key (hidden): ', key],
    ]);
    expect(asked.code).toBe(0);
    expect(asked.shown).not.toContain(key);
  });

  it('without an origin to offer and no terminal to ask on, is a usage error (exit 2)', async () => {
    const cwd = await service.directory('login-no-origin');
    const end = await runBuiltCli(['login', '--key-stdin'], cwd, { input: 'svc_rw_x\n' });
    expect(end.code).toBe(2);
    expect(end.stderr).toContain('no service origin: pass --origin <url>');
    const noKey = await runBuiltCli(['login', '--origin', service.server.origin], cwd);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('no terminal to ask for the key on: pipe it in with --key-stdin.');
  });
});
