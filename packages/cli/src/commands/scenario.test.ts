import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEnvFile } from '../env-file.js';
import { ExitCode } from '../exit-codes.js';
import { run } from '../program.js';
import { serviceEnv } from '../service-env.js';
import { CapturedOutput } from '../testing/captured-output.js';

let server: RunningServer;
let dir: string;
let env: string;

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'svc-scenario-'));
  env = join(dir, 'svc.env');
  await writeEnvFile(env, serviceEnv(server));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function svc(args: string[]) {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await run(['node', 'svc', ...args], { stdout, stderr, cwd: dir, env: {} });
  for (const key of Object.values(server.keys)) expect(stdout.text + stderr.text).not.toContain(key);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function scenarioYaml(slug: string, extra = '') {
  return `# yaml-language-server: $schema=https://unpkg.com/@svc-run/server/dist/scenario-document.schema.json
name: Refunds
slug: ${slug}
description: Refund delivered orders only.
world:
  state:
    orders:
      o1: { status: delivered }
    refunds: []
  tools:
    - name: refund_order
      description: Refunds an order.
      arguments:
        type: object
        properties:
          order_id: { type: string }
        required: [order_id]
      effect:
        op: create
        pointer: /refunds/-
        value: { order_id: { $arg: order_id } }
cases:
  - key: refund
    inputs: { message: Refund o1. }
grading:
  checks:
    - name: refunded
      kind: state
      assert: count
      pointer: /refunds
      count: 1${extra}
`;
}

describe('svc scenario publish', () => {
  it('publishes a YAML document, then publishes nothing new for the same document (exit 0)', async () => {
    const file = join(dir, 'refunds.yaml');
    await writeFile(file, scenarioYaml('cli-refunds'));
    const first = await svc(['scenario', 'publish', 'refunds.yaml', '--env-file', env]);
    expect(first).toMatchObject({ code: ExitCode.Ok, stderr: '' });
    expect(first.stdout).toMatch(
      /^Published cli-refunds version 1 \(1 tools, 1 cases\)\.\nVersion [0-9a-f-]{36}, document sha256 [0-9a-f]{64}\./,
    );
    const again = await svc(['scenario', 'publish', file, '--env-file', env, '--json']);
    expect(again.code).toBe(ExitCode.Ok);
    expect(JSON.parse(again.stdout)).toMatchObject({
      created: false,
      version: { number: 1 },
      scenario: { slug: 'cli-refunds' },
    });
    await writeFile(
      file,
      scenarioYaml('cli-refunds').replace('Refund delivered orders only.', 'Second edition.'),
    );
    expect((await svc(['scenario', 'publish', file, '--env-file', env])).stdout).toContain('version 2');
  });

  it('publishes a JSON document too', async () => {
    const file = join(dir, 'refunds.json');
    const { parse } = await import('yaml');
    await writeFile(file, JSON.stringify(parse(scenarioYaml('cli-refunds-json')), null, 2));
    const result = await svc(['scenario', 'publish', file, '--env-file', env]);
    expect(result).toMatchObject({ code: ExitCode.Ok, stderr: '' });
    expect(result.stdout).toContain('Published cli-refunds-json version 1');
  });

  it('shows every problem of a refused document at its file:line:column and JSON Pointer (exit 1)', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(
      file,
      scenarioYaml(
        'cli-broken',
        '\n    - name: elsewhere\n      kind: state\n      assert: absent\n      pointer: /x\n      cases: [nowhere]',
      ).replace('op: create', 'op: create_all'),
    );
    const schema = await svc(['scenario', 'publish', 'broken.yaml', '--env-file', env]);
    expect(schema.code).toBe(ExitCode.Failure);
    expect(schema.stderr).toBe(
      `error: the service refused broken.yaml: 1 problem\n  broken.yaml:19:13 /world/tools/0/effect/op: must be one of "read", "query", "create", "update", "merge", "delete"\n`,
    );
    await writeFile(
      file,
      scenarioYaml(
        'cli-broken',
        '\n    - name: elsewhere\n      kind: state\n      assert: absent\n      pointer: /x\n      cases: [nowhere]',
      ),
    );
    const rules = await svc(['scenario', 'publish', 'broken.yaml', '--env-file', env]);
    expect(rules.code).toBe(ExitCode.Failure);
    expect(rules.stderr).toContain(
      'broken.yaml:36:15 /grading/checks/1/cases/0: names the case "nowhere", which the document does not have',
    );
  });

  it('exits 2 for a file that is not JSON or YAML, a missing file, or no env file', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'name: [unclosed\n');
    const bad = await svc(['scenario', 'publish', 'bad.yaml', '--env-file', env]);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toMatch(/^error: .*bad\.yaml:\d+:\d+: not a JSON or YAML document/);
    expect((await svc(['scenario', 'publish', 'missing.yaml', '--env-file', env])).code).toBe(ExitCode.Usage);
    const noEnv = await svc(['scenario', 'publish', 'bad.yaml']);
    expect(noEnv.code).toBe(ExitCode.Usage);
    expect((await svc(['scenario', 'publish', join(dir, 'refunds.yaml')])).stderr).toContain(
      'run `svc login` first',
    );
    expect((await svc(['scenario', 'publish'])).code).toBe(ExitCode.Usage);
  });

  it('exits 1 with the reason when the key may not publish', async () => {
    const readOnly = join(dir, 'read.env');
    await writeEnvFile(readOnly, { SVC_BASE_URL: server.origin, SVC_API_KEY: server.keys.read });
    const result = await svc(['scenario', 'publish', join(dir, 'refunds.yaml'), '--env-file', readOnly]);
    expect(result.code).toBe(ExitCode.Failure);
    expect(result.stderr).toContain('HTTP 403');
  });
});

describe('svc scenario list', () => {
  it('lists the published scenarios, as a table or as JSON', async () => {
    await writeFile(join(dir, 'listed.yaml'), scenarioYaml('cli-listed'));
    await svc(['scenario', 'publish', 'listed.yaml', '--env-file', env]);
    const table = await svc(['scenario', 'list', '--env-file', env]);
    expect(table.code).toBe(ExitCode.Ok);
    expect(table.stdout.split('\n')[0]).toMatch(/^SLUG\s+VERSIONS\s+UPDATED\s+NAME$/);
    expect(table.stdout).toMatch(/\ncli-listed\s+1\s+\S+\s+Refunds\n/);
    const json = await svc(['scenario', 'list', '--env-file', env, '--json']);
    expect((JSON.parse(json.stdout) as { slug: string }[]).map((scenario) => scenario.slug)).toContain(
      'cli-listed',
    );
  });
});
