/**
 * `svc eval --set` end to end: the built `svc` executable in a child process against the reference
 * server, with the test agent (`testing/agents/test-agent.mjs`) as the command. Expectations come
 * from the issue and the spec: exit codes 0 / 1 / 2, the JSON document (validated against its JSON
 * Schema with ajv), the JUnit report (read by an XML parser), errored cases, content.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScorerDefinition } from '@svc-run/sdk/evals';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { documentOf } from '../../testing/eval-document-schema.js';
import {
  createEvalSet,
  createScorer,
  TEST_AGENT_COMMAND,
  useEvalService,
  writeEvalEnvFile,
} from '../../testing/eval-service.js';
import { runBuiltCli } from '../../testing/spawn-built-cli.js';
import { runBuiltCliInTerminal } from '../../testing/terminal/run-in-terminal.js';

const service = useEvalService();

const includes: ScorerDefinition = {
  kind: 'builtin',
  builtin: 'includes',
  caseSensitive: true,
  metrics: [{ name: 'includes', type: 'boolean' }],
};

/** A workspace: a directory with an env file holding the Read-and-write key. */
async function workspace(prefix: string) {
  const cwd = await service.directory(prefix);
  const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
  return { cwd, envFile };
}

function evalArgs(set: string, scorer: string, envFile: string, ...more: string[]): string[] {
  return [
    'eval',
    '--set',
    set,
    '--scorer',
    scorer,
    '--command',
    TEST_AGENT_COMMAND,
    '--env-file',
    envFile,
    ...more,
  ];
}

describe('svc eval --set', () => {
  it('exits 0 when every case passes, printing the document on stdout (--json) and a JUnit report', async () => {
    const set = await createEvalSet(service.client, 'capitals', [
      { externalKey: 'france', inputs: { answer: 'Paris' }, expected: 'Paris' },
      { externalKey: 'japan', inputs: { answer: 'Tokyo' }, expected: 'Tokyo' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const { cwd, envFile } = await workspace('pass');
    const end = await runBuiltCli(
      evalArgs(set.slug, scorer.slug, envFile, '--revision', 'abc1234', '--json', '--junit', 'report.xml'),
      cwd,
    );
    expect(end.stderr).toContain('Totals: 2 passed, 0 failed, 0 errored, 0 pending, of 2');
    expect(end.code).toBe(0);
    // Progress on stderr, not a terminal: a plain line per case.
    expect(end.stderr).toContain('\n[1/2] france PASS\n[2/2] japan PASS\n');

    const document = documentOf(end.stdout);
    expect(document).toMatchObject({
      mode: 'direct',
      revision: 'abc1234',
      complete: true,
      deferredScorerVersionIds: [],
      totals: { cases: 2, passed: 2, failed: 0, errored: 0, pending: 0 },
      evalSet: { slug: set.slug, versionId: set.version.id, version: 1 },
      scorers: [{ slug: scorer.slug, scorerVersionId: scorer.versionId, kind: 'builtin' }],
    });
    expect(document.runUrl).toBe(`${service.server.origin}/experiments/${document.experimentId}`);
    expect(document.cases.map((item) => [item.externalKey, item.state])).toEqual([
      ['france', 'PASS'],
      ['japan', 'PASS'],
    ]);
    const [france] = document.cases;
    expect(france!.command).toMatchObject({
      exitCode: 0,
      timedOut: false,
      stdout: 'answered france\n',
      stderr: 'notes on france\n',
    });
    expect(france!.traceUrl).toBe(`${service.server.origin}/traces/${france!.traceId}`);
    expect(france!.outputFiles).toEqual([
      {
        name: 'answer.txt',
        contentType: 'text/plain',
        size: 5,
        sha256: createHash('sha256').update('Paris').digest('hex'),
      },
    ]);
    // The revision is recorded on the run.
    const experiment = await service.client.getExperiment(document.experimentId);
    expect(experiment.config).toMatchObject({ svcEval: { mode: 'direct', revision: 'abc1234' } });
    // Every case passed and none errored: the experiment is finished.
    expect(experiment.finishedAt).not.toBeNull();

    const xml = await readFile(join(cwd, 'report.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const report = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(report.testsuites).toMatchObject({ tests: '2', failures: '0', errors: '0', skipped: '0' });
    const testcases = report.testsuites.testsuite.testcase as { name: string; failure?: unknown }[];
    expect(testcases.map((testcase) => testcase.name)).toEqual(['france', 'japan']);
    expect(testcases.every((testcase) => testcase.failure === undefined)).toBe(true);
  });

  it('exits 1 and names the failing metric with its explanation when a case fails', async () => {
    const set = await createEvalSet(service.client, 'capitals', [
      { externalKey: 'france', inputs: { answer: 'Paris' }, expected: 'Paris' },
      { externalKey: 'italy', inputs: { answer: 'Milan' }, expected: 'Rome' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const { cwd, envFile } = await workspace('fail');
    const end = await runBuiltCli(evalArgs(set.slug, scorer.slug, envFile, '--junit', 'report.xml'), cwd);
    expect(end.code).toBe(1);
    // Without --json the report is on stdout.
    expect(end.stdout).toMatch(
      new RegExp(
        `^italy +FAIL +${scorer.slug}/includes: The output does not include the expected text\\.$`,
        'm',
      ),
    );
    expect(end.stdout).toMatch(/^france +PASS$/m);
    expect(end.stdout).toContain('Totals: 1 passed, 1 failed, 0 errored, 0 pending, of 2');
    expect(end.stdout).toMatch(new RegExp(`^Run: ${service.server.origin}/experiments/[0-9a-f-]{36}$`, 'm'));

    const xml = await readFile(join(cwd, 'report.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const report = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(report.testsuites).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    const italy = (
      report.testsuites.testsuite.testcase as { name: string; failure?: { type: string } }[]
    ).find((testcase) => testcase.name === 'italy');
    expect(italy?.failure).toMatchObject({ type: `${scorer.slug}/includes` });
  });

  it('reports a command that fails and one that writes nothing as errored cases, and runs the others', async () => {
    const set = await createEvalSet(service.client, 'errors', [
      { externalKey: 'exits-3', inputs: { behavior: 'exit', exitCode: 3 }, expected: 'x' },
      { externalKey: 'silent', inputs: { behavior: 'nothing' }, expected: 'x' },
      { externalKey: 'fine', inputs: { answer: 'x' }, expected: 'x' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const { cwd, envFile } = await workspace('errors');
    const end = await runBuiltCli(evalArgs(set.slug, scorer.slug, envFile, '--json'), cwd);
    expect(end.code).toBe(1);
    const document = documentOf(end.stdout);
    expect(document.totals).toEqual({ cases: 3, passed: 1, failed: 0, errored: 2, pending: 0 });
    expect(document.complete).toBe(true);
    const byKey = new Map(document.cases.map((item) => [item.externalKey, item]));
    expect(byKey.get('exits-3')).toMatchObject({
      state: 'ERROR',
      error: { type: 'CommandFailed', message: expect.stringContaining('exited with code 3') },
      command: { exitCode: 3, timedOut: false, stderr: 'failing on purpose with code 3\n' },
    });
    expect(byKey.get('silent')).toMatchObject({
      state: 'ERROR',
      error: { type: 'NoOutput', message: expect.stringContaining('wrote nothing to SVC_CASE_OUTPUT_DIR') },
      command: { exitCode: 0 },
    });
    expect(byKey.get('fine')?.state).toBe('PASS');
    expect(end.stderr).toMatch(/^exits-3 +ERROR +CommandFailed: The command exited with code 3\./m);

    // On the service: errored executions (type only, without --content), and the experiment left
    // open for --retry-errors.
    const execution = await service.client.getExecution(byKey.get('exits-3')!.executionId!);
    expect(execution).toMatchObject({ state: 'error', error: { type: 'CommandFailed' } });
    expect(execution.error).not.toHaveProperty('message');
    expect((await service.client.getExperiment(document.experimentId)).finishedAt).toBeNull();
  });

  it('stops a command that hangs past the per-case timeout and reports the case as errored', async () => {
    // The command never ends on its own: only the timeout (one second) can end it. Alone in its
    // eval set, so that no other case depends on running within that second.
    const set = await createEvalSet(service.client, 'hang', [
      { externalKey: 'hangs', inputs: { behavior: 'hang' }, expected: 'x' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const { cwd, envFile } = await workspace('hang');
    const end = await runBuiltCli(evalArgs(set.slug, scorer.slug, envFile, '--json', '--timeout', '1'), cwd);
    expect(end.code).toBe(1);
    const document = documentOf(end.stdout);
    expect(document.totals).toEqual({ cases: 1, passed: 0, failed: 0, errored: 1, pending: 0 });
    expect(document.cases[0]).toMatchObject({
      state: 'ERROR',
      error: { type: 'CommandTimedOut', message: expect.stringContaining('per-case timeout of 1 s') },
      command: { timedOut: true, exitCode: null },
    });
  });

  it('draws its progress on a terminal as one line rewritten in place', async () => {
    const set = await createEvalSet(service.client, 'terminal', [
      { externalKey: 'one', inputs: { answer: 'yes' }, expected: 'yes' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const { cwd, envFile } = await workspace('terminal');
    const end = await runBuiltCliInTerminal(evalArgs(set.slug, scorer.slug, envFile), cwd);
    expect(end.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence is what it checks
    expect(end.shown).toMatch(/\r\u001b\[K1\/1 cases · 1 passed · 0 failed · 0 errors · \d+(?:\.\d)?s/);
    expect(end.shown).not.toContain('[1/1] one PASS');
    expect(end.shown).toContain('Totals: 1 passed, 0 failed, 0 errored, 0 pending, of 1');
  });

  it('keeps outputs and uploads output files only with --content', async () => {
    const set = await createEvalSet(service.client, 'content', [
      { externalKey: 'one', inputs: { answer: 'kept' }, expected: 'kept' },
    ]);
    const scorer = await createScorer(service.client, 'mentions', includes);
    const sha256 = createHash('sha256').update('kept').digest('hex');
    const blobStatus = async (traceId: string) =>
      (
        await fetch(`${service.server.origin}/api/v1/traces/${traceId}/blobs/${sha256}`, {
          headers: { authorization: `Bearer ${service.server.keys.read}` },
        })
      ).status;

    const off = await workspace('content-off');
    const without = documentOf(
      (await runBuiltCli(evalArgs(set.slug, scorer.slug, off.envFile, '--json'), off.cwd)).stdout,
    );
    const plain = await service.client.getExecution(without.cases[0]!.executionId!);
    expect(plain).not.toHaveProperty('output');
    expect(await blobStatus(without.cases[0]!.traceId!)).not.toBe(200);
    // The report shows the scorer's real explanation all the same (scored again locally).
    expect(without.cases[0]!.scores[0]!.explanation).toBe('The output includes the expected text.');

    const on = await workspace('content-on');
    const withContent = documentOf(
      (await runBuiltCli(evalArgs(set.slug, scorer.slug, on.envFile, '--json', '--content'), on.cwd)).stdout,
    );
    const kept = await service.client.getExecution(withContent.cases[0]!.executionId!);
    expect(kept.output).toEqual({
      files: [{ name: 'answer.txt', contentType: 'text/plain', size: 4, sha256 }],
      primary: 'answer.txt',
      text: 'kept',
    });
    expect(await blobStatus(withContent.cases[0]!.traceId!)).toBe(200);
  });
});

describe('svc eval usage errors exit 2', () => {
  it.each([
    [['eval', '--bogus'], "error: unknown option '--bogus'"],
    [
      ['eval', '--scorer', 's', '--command', 'true'],
      "error: required option '--set <slug[@version]>' not specified",
    ],
    [['eval', '--set', 'a', '--command', 'true'], "error: required option '--scorer <slug>' not specified"],
    [['eval', '--set', 'a', '--scorer', 's'], "error: required option '--command <command>' not specified"],
    [
      ['eval', '--set', 'Bad Slug', '--scorer', 's', '--command', 'true'],
      "error: option '--set <slug[@version]>' argument 'Bad Slug' is invalid.",
    ],
    [
      ['eval', '--set', 'a', '--scorer', 's', '--command', 'true', '--wait', '-1'],
      "error: option '--wait <seconds>' argument '-1' is invalid.",
    ],
    [
      ['eval', '--set', 'a', '--scorer', 's', '--command', 'true', '--timeout', '0'],
      "error: option '--timeout <seconds>' argument '0' is invalid.",
    ],
    [
      ['eval', '--set', 'a', '--scorer', 's', '--command', 'true', '--baseline', 'nope'],
      "error: option '--baseline <experiment-id>' argument 'nope' is invalid.",
    ],
    [['nonsense', '--help'], "error: unknown command 'nonsense'"],
  ])('svc %j', async (args, message) => {
    const cwd = await service.directory('usage');
    const end = await runBuiltCli(args, cwd);
    expect(end.code).toBe(2);
    expect(end.stdout).toBe('');
    expect(end.stderr.startsWith(message)).toBe(true);
  });

  it('prints the eval usage for svc eval --help and exits 0', async () => {
    const end = await runBuiltCli(['eval', '--help'], await service.directory('help'));
    expect(end.code).toBe(0);
    expect(end.stdout).toMatch(/^Usage: svc eval \[options\]/);
    for (const flag of [
      '--set',
      '--scorer',
      '--command',
      '--revision',
      '--wait',
      '--json',
      '--junit',
      '--env-file',
      '--baseline',
      '--content',
      '--timeout',
      '--checkpoint-dir',
      '--retry-errors',
    ]) {
      expect(end.stdout).toContain(flag);
    }
  });

  it('exits 2 for a missing env file or variable, and 1 for a refused key, never echoing the key', async () => {
    const cwd = await service.directory('keys');
    const args = ['eval', '--set', 'a', '--scorer', 's', '--command', 'true'];
    const missingFile = await runBuiltCli(args, cwd);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toContain('run `svc login` first, or pass --env-file');

    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(cwd, 'no-key.env'), `SVC_BASE_URL=${service.server.origin}\n`);
    const missingKey = await runBuiltCli([...args, '--env-file', 'no-key.env'], cwd);
    expect(missingKey.code).toBe(2);
    expect(missingKey.stderr).toContain('sets no SVC_API_KEY');

    const { keys } = service.server;
    for (const [key, reason] of [
      [keys.tracing, 'it is a tracing key'],
      [keys.read, 'it is a Read key'],
      ['svc_rw_NotAKeyOfThisServiceAtAll0000000000000000000', 'it is not a key of a project of this service'],
    ] as const) {
      const envFile = await writeEvalEnvFile(await service.directory('refused'), service.server, key);
      const refused = await runBuiltCli([...args, '--env-file', envFile], cwd);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(reason);
      expect(refused.stdout + refused.stderr).not.toContain(key);
    }
  });
});
