/**
 * Agent isolation, end to end: the built `svc eval` runs the test agent's `inventory` case, which
 * writes down everything it can see — its environment, and every file under its directory with
 * its content. Expectations from the issue and DESIGN ("Agents never see what only evaluators
 * may"): the directory holds only the files of the four agent roles, under `files/<role>/<name>`;
 * the case's `expected` and its evaluator-only files (`org_template`, `evaluator_reference`) are
 * nowhere in its environment or directory, and neither are the service's keys.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaseFileInput, ScorerDefinition } from '@svc-run/sdk/evals';
import { describe, expect, it } from 'vitest';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
  writeEvalEnvFile,
} from '../../testing/eval-service.js';
import { runBuiltCli } from '../../testing/spawn-built-cli.js';

const service = useEvalService();

const includes: ScorerDefinition = {
  kind: 'builtin',
  builtin: 'includes',
  caseSensitive: true,
  metrics: [{ name: 'includes', type: 'boolean' }],
};

// Markers that must never reach the agent: in `expected` and in the evaluator-only files.
const EXPECTED_MARKER = 'expected-marker-7f3a';
const ORG_TEMPLATE_MARKER = 'org-template-marker-91c2';
const EVALUATOR_MARKER = 'evaluator-reference-marker-5be0';

function file(role: CaseFileInput['role'], name: string, text: string): CaseFileInput {
  return { role, name, contentType: 'text/plain', data: Buffer.from(text) };
}

interface Inventory {
  cwd: string;
  env: Record<string, string>;
  files: { path: string; content: string }[];
}

describe('svc eval --set agent isolation', () => {
  it("gives the command only the agent roles' files, never expected, evaluator-only files or keys", async () => {
    const inputs = { behavior: 'inventory', answer: 'done', question: 'Summarize the policy.' };
    const set = await createEvalSet(service.client, 'isolation', [
      {
        externalKey: 'policy',
        inputs,
        expected: { answer: EXPECTED_MARKER },
        files: [
          file('source', 'policy.md', 'source text'),
          file('attached_template', 'template.md', 'attached template text'),
          file('attached_reference', 'reference.md', 'attached reference text'),
          file('original', 'original.txt', 'original text'),
          file('org_template', 'org.md', ORG_TEMPLATE_MARKER),
          file('evaluator_reference', 'answer-key.md', EVALUATOR_MARKER),
        ],
      },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const cwd = await service.directory('isolation');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const inventories = await service.directory('inventories');
    const { keys } = service.server;
    const end = await runBuiltCli(
      [
        'eval',
        ...['--set', set.slug, '--scorer', scorer.slug, '--command', TEST_AGENT_COMMAND],
        ...['--env-file', envFile, '--content'],
      ],
      cwd,
      {
        // The service's variables in svc eval's own environment: none may reach the agent.
        env: {
          EVAL_TEST_INVENTORIES: inventories,
          SVC_API_KEY: keys.readWrite,
          SVC_RW_KEY: keys.readWrite,
          SVC_READ_KEY: keys.read,
          SVC_BASE_URL: service.server.origin,
        },
      },
    );
    // The agent answered (the inventory is written before the answer), and `done` is not expected.
    expect(end.stdout).toMatch(/^policy +FAIL/m);

    const inventory = JSON.parse(await readFile(join(inventories, 'policy.json'), 'utf8')) as Inventory;
    expect(inventory.files.map((entry) => entry.path).toSorted()).toEqual([
      'files/attached_reference/reference.md',
      'files/attached_template/template.md',
      'files/original/original.txt',
      'files/source/policy.md',
    ]);
    const contents = new Map(
      inventory.files.map((entry) => [entry.path, Buffer.from(entry.content, 'base64').toString()]),
    );
    expect(contents.get('files/source/policy.md')).toBe('source text');
    expect(contents.get('files/original/original.txt')).toBe('original text');

    expect(JSON.parse(inventory.env.SVC_CASE_INPUTS!)).toEqual(inputs);
    expect(inventory.env.SVC_CASE_OUTPUT_DIR).toBe(join(inventory.cwd, 'output'));
    expect(
      Object.keys(inventory.env)
        .filter((name) => /^SVC_/i.test(name))
        .toSorted(),
    ).toEqual(['SVC_CASE_DIR', 'SVC_CASE_INPUTS', 'SVC_CASE_KEY', 'SVC_CASE_OUTPUT_DIR']);
    const seen = JSON.stringify(inventory) + [...contents.values()].join('\n');
    for (const secret of [
      EXPECTED_MARKER,
      ORG_TEMPLATE_MARKER,
      EVALUATOR_MARKER,
      keys.readWrite,
      keys.read,
      keys.tracing,
      keys.machine,
    ]) {
      expect(seen).not.toContain(secret);
    }
    // The directory is private to the case, and removed after it.
    expect(inventory.cwd).not.toBe(cwd);
    await expect(readFile(join(inventory.cwd, 'files/source/policy.md'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
