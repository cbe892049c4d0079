import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createEvaluationClient,
  createWorldClient,
  type EvaluationClient,
  type ScenarioDocument,
  type Trial,
} from '@svc-run/sdk/evals';
import { type RunningServer, startServer } from '@svc-run/server';
import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runMyAgent as assistantAgent } from './assistant/agent.js';
import { runMyAgent as supportAgent } from './customer-support/agent.js';

// The examples end to end: publish each document, and for each case start a trial, call the
// example agent with the trial's world tools as `context.tools`, seal its output and read the
// graded outcome (with the SDK); then the same with the built `svc eval --scenario`. The expected verdicts come from
// each scenario's intent (its policy and its cases), written down in README.md.

/**
 * The stand-in for the hosted judge model: deterministic, so the examples grade the same on every
 * machine. It grades every rubric the same way: true when the reply (the `<output>` binding) is
 * courteous (an apology, thanks or "please").
 */
const judge = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'example-judge',
  doGenerate: async (options) => {
    const text = JSON.stringify(options.prompt);
    const metric = /\\n- ([^:\\]+): a boolean/.exec(text)?.[1] ?? 'verdict';
    const output = /<output>([\s\S]*?)<\/output>/.exec(text)?.[1] ?? '';
    const courteous = /\b(sorry|thanks?|please)\b/i.test(output);
    return {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            explanation: courteous ? 'Courteous and clear.' : 'Not courteous.',
            metrics: { [metric]: courteous },
          }),
        },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    };
  },
});

type Agent = (inputs: never, context: { tools: never; files: readonly unknown[] }) => Promise<unknown>;

interface Expected {
  outcome: 'passed' | 'failed';
  failedChecks: string[];
  /** Each check by name with its status; only the cases with an `llm_judge` check list them. */
  checks?: Record<string, string>;
}

let server: RunningServer;
let client: EvaluationClient;

beforeAll(async () => {
  server = await startServer({ judgeModel: judge });
  client = createEvaluationClient({
    apiKey: server.keys.readWrite,
    baseUrl: server.origin,
    timeoutMillis: 60_000,
  });
});

afterAll(async () => {
  await server?.close();
});

async function readDocument(path: string): Promise<ScenarioDocument> {
  return parse(await readFile(new URL(path, import.meta.url), 'utf8')) as ScenarioDocument;
}

/** Runs `agent` on one case of a run, as the CLI will, and answers the trial once graded. */
async function runCase(runId: string, caseKey: string, agent: Agent): Promise<Trial> {
  const started = await client.startTrial(runId, {
    idempotencyKey: client.newIdempotencyKey(),
    caseKey,
    trial: 1,
  });
  const world = createWorldClient({
    token: started.token!,
    toolsUrl: started.world.toolsUrl,
    timeoutMillis: 60_000,
  });
  const tools = await world.toolFunctions();
  const output = await agent(started.inputs as never, { tools: tools as never, files: started.files });
  await client.sealTrial(started.trial.id, {
    idempotencyKey: client.newIdempotencyKey(),
    output: output as never,
  });
  // An llm_judge check grades after the seal answers: wait until no check is pending.
  return waitUntil(
    async () => {
      const trial = await client.getTrial(started.trial.id);
      return trial.outcome !== 'pending' && trial;
    },
    `trial ${caseKey} to be graded`,
    20,
  );
}

/** The built `svc` executable of `@svc-run/cli`. */
const SVC = join(
  dirname(createRequire(import.meta.url).resolve('@svc-run/cli/package.json')),
  'bin',
  'svc.mjs',
);

/**
 * Runs `svc eval --scenario <slug> <agent file> --json` (the built CLI, in a child process) and
 * answers each case's verdict and failed checks from its document.
 */
async function runWithCli(slug: string, agentFile: string) {
  const cwd = await mkdtemp(join(tmpdir(), 'svc-example-scenarios-'));
  try {
    const envFile = join(cwd, 'svc.env');
    await writeFile(envFile, `SVC_BASE_URL=${server.origin}\nSVC_API_KEY=${server.keys.readWrite}\n`, {
      mode: 0o600,
    });
    const { NODE_OPTIONS: _ignored, ...env } = process.env;
    const agent = fileURLToPath(new URL(agentFile, import.meta.url));
    const ended = await promisify(execFile)(
      process.execPath,
      [SVC, 'eval', '--scenario', slug, agent, '--env-file', envFile, '--json'],
      { cwd, env, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      // Exit code 1: a case failed (expected here); anything else is the test's failure.
      if (error.code !== 1) throw new Error(`svc eval ended with ${String(error.code)}: ${error.stderr}`);
      return { stdout: error.stdout ?? '', stderr: error.stderr ?? '' };
    });
    const document = JSON.parse(ended.stdout) as {
      complete: boolean;
      cases: { caseKey: string; state: string; trials: { failedChecks: string[] }[] }[];
    };
    expect(document.complete).toBe(true);
    return Object.fromEntries(
      document.cases.map((item) => [
        item.caseKey,
        { state: item.state, failedChecks: [...item.trials[0]!.failedChecks].sort() },
      ]),
    );
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

async function runScenario(
  path: string,
  agent: Agent,
  expected: Record<string, Expected>,
  agentFile: string,
): Promise<void> {
  const document = await readDocument(path);
  const published = await client.publishScenario(document);
  expect(published.version.number).toBeGreaterThanOrEqual(1);
  // Publishing the same file again is the same version.
  expect((await client.publishScenario(await readDocument(path))).created).toBe(false);
  const run = await client.createScenarioRun({
    idempotencyKey: client.newIdempotencyKey(),
    scenarioVersionId: published.version.id,
    name: `example: ${document.slug}`,
  });
  const seen: Record<string, Expected> = {};
  for (const caseKey of Object.keys(expected)) {
    const trial = await runCase(run.id, caseKey, agent);
    seen[caseKey] = {
      outcome: trial.outcome as Expected['outcome'],
      failedChecks: [...trial.failedChecks].sort(),
      ...(expected[caseKey]!.checks === undefined
        ? {}
        : { checks: Object.fromEntries(trial.checks.map((check) => [check.name, check.status])) }),
    };
  }
  expect(seen).toEqual(
    Object.fromEntries(
      Object.entries(expected).map(([key, value]) => [
        key,
        { ...value, failedChecks: [...value.failedChecks].sort() },
      ]),
    ),
  );
  const summary = await client.getScenarioRun(run.id);
  const failing = Object.values(expected).filter((value) => value.outcome === 'failed').length;
  expect(summary).toMatchObject({
    complete: true,
    runUrl: `${server.origin}/scenarios/runs/${run.id}`,
    totals: {
      cases: document.cases.length,
      sealed: document.cases.length,
      passed: document.cases.length - failing,
      failed: failing,
      errored: 0,
      pending: 0,
    },
  });
  expect(Object.fromEntries(summary.cases.map((item) => [item.caseKey, item.verdict]))).toEqual(
    Object.fromEntries(
      Object.entries(expected).map(([key, value]) => [key, value.outcome === 'passed' ? 'PASS' : 'FAIL']),
    ),
  );

  // The same verdicts through the command line: `svc eval --scenario` with the agent file as it is.
  expect(await runWithCli(document.slug, agentFile)).toEqual(
    Object.fromEntries(
      Object.entries(expected).map(([key, value]) => [
        key,
        { state: value.outcome === 'passed' ? 'PASS' : 'FAIL', failedChecks: [...value.failedChecks].sort() },
      ]),
    ),
  );
}

describe('examples/scenarios', () => {
  it('customer support: follows the refund policy except the cap at the order total', async () => {
    await runScenario(
      './customer-support/scenario.yaml',
      supportAgent as Agent,
      {
        'refund-eligible': { outcome: 'passed', failedChecks: [] },
        'refund-window-closed': {
          outcome: 'passed',
          failedChecks: [],
          checks: {
            'no refund recorded': 'passed',
            'no refund issued': 'passed',
            'names the 30-day window': 'passed',
            'explains the policy kindly': 'passed',
          },
        },
        'cancel-processing': { outcome: 'passed', failedChecks: [] },
        // The agent refunds the 55 EUR asked for; the policy caps a refund at the 40 EUR total.
        'refund-over-total': { outcome: 'failed', failedChecks: ['refund capped at the total'] },
      },
      './customer-support/agent.ts',
    );
  });

  it('assistant: books and asks as it should, but silently moves a meeting when the slot is taken', async () => {
    await runScenario(
      './assistant/scenario.yaml',
      assistantAgent as Agent,
      {
        'book-and-invite': { outcome: 'passed', failedChecks: [] },
        // It books the next free hour and emails Ben instead of asking first.
        'slot-taken': { outcome: 'failed', failedChecks: ['no invite sent', 'no meeting moved'] },
        'ambiguous-contact': {
          outcome: 'passed',
          failedChecks: [],
          checks: {
            'nothing sent': 'passed',
            'searched the contacts': 'passed',
            'names both candidates': 'passed',
            'asks a clear question': 'passed',
          },
        },
      },
      './assistant/agent.ts',
    );
  });
});
