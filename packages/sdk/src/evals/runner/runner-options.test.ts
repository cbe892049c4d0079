import { afterAll, describe, expect, it } from 'vitest';
import { createSvc } from '../../client/svc-client.js';
import { createEvaluationClient } from '../client/evaluation-client.js';
import { lengthScorer } from './__fixtures__/question-cases.js';
import { rescore } from './rescore.js';
import { runExperiment } from './run-experiment.js';
import { validateRescoreOptions, validateRunExperimentOptions } from './runner-options.js';

const ORIGIN = 'http://127.0.0.1:9';
const KEY = 'svc_rw_0123456789abcdefsecret';
const client = createEvaluationClient({ apiKey: KEY, baseUrl: ORIGIN });
const svc = createSvc({ apiKey: KEY, baseUrl: ORIGIN, serviceName: 'options-test', captureContent: false });
afterAll(async () => {
  await svc.shutdown();
});

const EXPERIMENT_ID = '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a';
const good = {
  client,
  svc,
  experimentId: EXPERIMENT_ID,
  checkpointDirectory: '.svc-checkpoints/test',
  persistResultContent: false,
  traceEvidence: { mode: 'required' as const },
  target: () => 'ok',
};
const goodRescore = {
  client,
  runId: EXPERIMENT_ID,
  checkpointDirectory: '.svc-checkpoints/test',
  persistResultContent: true,
};

describe('validateRunExperimentOptions', () => {
  it('applies the defaults', () => {
    expect(validateRunExperimentOptions(good)).toMatchObject({
      client,
      svc,
      experimentId: EXPERIMENT_ID,
      persistResultContent: false,
      traceEvidence: { mode: 'required' },
      scorers: [],
      concurrency: 1,
      schemaTimeoutMillis: 2000,
    });
  });

  it('keeps the given optional values', () => {
    const resolved = validateRunExperimentOptions({
      ...good,
      scorers: [lengthScorer],
      concurrency: 16,
      schemaTimeoutMillis: 100,
      traceEvidence: { mode: 'omit', reason: 'no tracing here' },
    });
    expect(resolved).toMatchObject({
      scorers: [lengthScorer],
      concurrency: 16,
      schemaTimeoutMillis: 100,
      traceEvidence: { mode: 'omit', reason: 'no tracing here' },
    });
  });

  it.each([
    ['options', null, /^options must be an object \{ client, svc, experimentId, .*; got null$/],
    ['options', [], /^options must be an object .*; got an array$/],
    [
      'client',
      { client: {} },
      /^client must be an evaluation client made by createEvaluationClient .*; got an object$/,
    ],
    ['client', { client: undefined }, /^client must be an evaluation client .*; got undefined$/],
    [
      'checkpointDirectory',
      { checkpointDirectory: '' },
      /^checkpointDirectory must be a nonempty path .*; got an empty string$/,
    ],
    ['checkpointDirectory', { checkpointDirectory: 42 }, /^checkpointDirectory must be .*; got 42$/],
    [
      'persistResultContent',
      { persistResultContent: undefined },
      /^persistResultContent must be true or false \(required: .*\); got undefined$/,
    ],
    [
      'persistResultContent',
      { persistResultContent: 'yes' },
      /^persistResultContent must be true or false .*; got "yes"$/,
    ],
    ['scorers', { scorers: [{}] }, /^scorers\[0\] must be a scorer made by defineLocalScorer/],
    [
      'scorers',
      { scorers: lengthScorer },
      /^scorers must be an array of scorers made by defineLocalScorer; got an object$/,
    ],
    [
      'mayHaveRun',
      { mayHaveRun: true },
      /^mayHaveRun must be a function \(\{ caseId, traceId \}\) returning a boolean .*; got true$/,
    ],
    ['concurrency', { concurrency: 0 }, /^concurrency must be an integer from 1 to 16; got 0$/],
    ['concurrency', { concurrency: 17 }, /^concurrency must be an integer from 1 to 16; got 17$/],
    ['concurrency', { concurrency: 2.5 }, /^concurrency must be an integer from 1 to 16; got 2.5$/],
    [
      'schemaTimeoutMillis',
      { schemaTimeoutMillis: 99 },
      /^schemaTimeoutMillis must be an integer from 100 to 60000; got 99$/,
    ],
    ['svc', { svc: undefined }, /^svc must be a tracing client made by createSvc .*; got undefined$/],
    [
      'svc',
      { svc: { withSpan: () => undefined } },
      /^svc must be a tracing client made by createSvc .*; got an object$/,
    ],
    [
      'experimentId',
      { experimentId: 'exp-1' },
      /^experimentId must be the ID of an experiment \(a lowercase UUID\); got "exp-1"$/,
    ],
    ['experimentId', { experimentId: undefined }, /^experimentId must be .*; got undefined$/],
    [
      'traceEvidence',
      { traceEvidence: 'required' },
      /^traceEvidence must be \{ mode: 'required' \} or \{ mode: 'omit', reason \}; got "required"$/,
    ],
    [
      'traceEvidence',
      { traceEvidence: { mode: 'always' } },
      /^traceEvidence must be .*; got an object with mode "always"$/,
    ],
    [
      'traceEvidence',
      { traceEvidence: { mode: 'required', reason: 'x' } },
      /^traceEvidence must be .*; got an object with mode "required" and a reason$/,
    ],
    [
      'traceEvidence.reason',
      { traceEvidence: { mode: 'omit' } },
      /^traceEvidence.reason must be a string of 1 to 1000 characters .*; got undefined$/,
    ],
    [
      'traceEvidence.reason',
      { traceEvidence: { mode: 'omit', reason: '  ' } },
      /^traceEvidence.reason must be .*; got " {2}"$/,
    ],
    [
      'traceEvidence.reason',
      { traceEvidence: { mode: 'omit', reason: 'x'.repeat(1001) } },
      /^traceEvidence.reason must be .*; got a string of 1001 characters$/,
    ],
    [
      'target',
      { target: 'answer' },
      /^target must be a function \(inputs, \{ config, item, span \}\) .*; got "answer"$/,
    ],
    [
      'an unknown option',
      { runId: EXPERIMENT_ID },
      /^"runId" is not an option of runExperiment; its options are client, /,
    ],
  ])('refuses a bad %s with a TypeError naming it', (_name, override, message) => {
    const options = Array.isArray(override) || override === null ? override : { ...good, ...override };
    expect(() => validateRunExperimentOptions(options)).toThrow(TypeError);
    expect(() => validateRunExperimentOptions(options)).toThrow(message);
  });

  it('never shows a key passed as a client', () => {
    for (const option of ['client', 'svc']) {
      const call = () => validateRunExperimentOptions({ ...good, [option]: KEY });
      expect(call).toThrow(new RegExp(`^${option} must be .*; got a string$`));
    }
  });

  it('refuses a tracing client and an evaluation client of different origins', () => {
    const other = createSvc({
      apiKey: KEY,
      baseUrl: 'http://127.0.0.1:10',
      serviceName: 'x',
      captureContent: false,
    });
    expect(() => validateRunExperimentOptions({ ...good, svc: other })).toThrow(
      "svc and client must use the same origin (the traces are the executions' evidence); svc sends to http://127.0.0.1:10, client to http://127.0.0.1:9",
    );
  });

  it('makes runExperiment reject before any request or write', async () => {
    await expect(runExperiment({ ...good, concurrency: 0 })).rejects.toThrow(TypeError);
  });
});

describe('validateRescoreOptions', () => {
  it('applies the defaults', () => {
    expect(validateRescoreOptions(goodRescore)).toMatchObject({
      runId: EXPERIMENT_ID,
      persistResultContent: true,
      scorers: [],
      concurrency: 1,
      schemaTimeoutMillis: 2000,
    });
  });

  it.each([
    ['options', 'run', /^options must be an object \{ client, runId, .*; got "run"$/],
    ['runId', { runId: 7 }, /^runId must be the ID of an evaluation run \(a lowercase UUID\); got 7$/],
    ['runId', { runId: EXPERIMENT_ID.toUpperCase() }, /^runId must be the ID of an evaluation run/],
    ['client', { client: null }, /^client must be an evaluation client/],
    ['persistResultContent', { persistResultContent: 1 }, /^persistResultContent must be true or false/],
    ['concurrency', { concurrency: '4' }, /^concurrency must be an integer from 1 to 16; got "4"$/],
    [
      'schemaTimeoutMillis',
      { schemaTimeoutMillis: 60_001 },
      /^schemaTimeoutMillis must be an integer from 100 to 60000/,
    ],
    [
      'target',
      { target: () => 1 },
      /^"target" is not an option of rescore \(rescore scores saved subjects; it runs no target\)/,
    ],
  ])('refuses a bad %s with a TypeError naming it', (_name, override, message) => {
    const options =
      typeof override === 'object' && override !== null ? { ...goodRescore, ...override } : override;
    expect(() => validateRescoreOptions(options)).toThrow(TypeError);
    expect(() => validateRescoreOptions(options)).toThrow(message);
  });

  it('makes rescore reject before any request or write', async () => {
    await expect(rescore({ ...goodRescore, runId: 'x' })).rejects.toThrow(/^runId must be/);
  });
});
