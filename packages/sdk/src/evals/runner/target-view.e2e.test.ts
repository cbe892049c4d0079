/**
 * What `runExperiment`'s target sees of a case (DESIGN: "Agents (targets) never see what only
 * evaluators may: `expected`, evaluator-only files (`org_template`, `evaluator_reference`), scorer
 * definitions"). One case, against the reference server, holds each hidden field with a marker of
 * its own; the target records everything it received (its arguments, and the attributes of the
 * case span it is handed), and each test looks for one hidden field there. The scorers still get
 * what they need: the case is scored against `expected`.
 */
import { createHash } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../../client/svc-client.js';
import { uniqueSlug, useEvalServer } from '../client/__fixtures__/eval-server.js';
import type { CaseFileRole } from '../types/dataset-types.js';
import { useTemporaryDirectories } from './__fixtures__/runner-setup.js';
import { runExperiment } from './run-experiment.js';
import type { TargetContext } from './runner-options.js';

const evals = useEvalServer();
const checkpoint = useTemporaryDirectories();
let svc: SvcClient;

const EXPECTED = 'Paris (expected-marker-5f1c)';
const METADATA_MARKER = 'metadata-marker-9a2e';
const SCHEMA_MARKER = 'scorer-schema-marker-7d40';
const ROLES: CaseFileRole[] = [
  'source',
  'attached_template',
  'attached_reference',
  'original',
  'org_template',
  'evaluator_reference',
];
/** One file per role, its name and bytes naming the role. */
const files = ROLES.map((role) => {
  const bytes = Buffer.from(`the ${role} file of the case`);
  return {
    role,
    name: `${role}-file.txt`,
    contentType: 'text/plain',
    data: bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
});
const file = (role: CaseFileRole) => files.find((f) => f.role === role)!;

interface Seen {
  inputs: unknown;
  context: TargetContext;
  /** Everything the target received, as JSON text: its arguments and its span's attributes. */
  text: string;
}
let seen: Seen | undefined;
let scorerVersionIds: string[];
let report: Awaited<ReturnType<typeof runExperiment>>;

beforeAll(async () => {
  const { client } = evals;
  svc = createSvc({
    apiKey: evals.server.keys.tracing,
    baseUrl: evals.server.origin,
    serviceName: 'target-view-e2e',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  const dataset = await client.createDataset({ name: 'Capitals', slug: uniqueSlug('capitals') });
  const version = await client.createDatasetVersion(dataset.id);
  const written = await client.addCase(version.id, {
    expectedRevision: version.revision,
    externalKey: 'france',
    inputs: { question: 'What is the capital of France?' },
    expected: EXPECTED,
    metadata: { graderNote: METADATA_MARKER },
    files: files.map(({ role, name, contentType, data }) => ({ role, name, contentType, data })),
  });
  await client.freezeDatasetVersion(version.id, written.version.revision);
  const publish = async (slug: string, definition: Parameters<typeof client.publishScorerVersion>[1]) => {
    const scorer = await client.createScorer({ name: slug, slug: uniqueSlug(slug) });
    return (await client.publishScorerVersion(scorer.id, definition)).id;
  };
  scorerVersionIds = [
    await publish('exact', {
      kind: 'builtin',
      builtin: 'exact_match',
      metrics: [{ name: 'exact_match', type: 'boolean' }],
    }),
    await publish('schema', {
      kind: 'builtin',
      builtin: 'json_schema',
      schema: { type: 'string', $comment: SCHEMA_MARKER },
      metrics: [{ name: 'json_schema', type: 'boolean' }],
    }),
  ];
  const experiment = await client.createExperiment({
    idempotencyKey: client.newIdempotencyKey(),
    name: 'What the target sees',
    datasetVersionId: version.id,
    scorerVersionIds,
    config: { model: 'tiny', temperature: 0 },
  });
  report = await runExperiment({
    client,
    svc,
    experimentId: experiment.id,
    checkpointDirectory: checkpoint('target-view'),
    persistResultContent: true,
    traceEvidence: { mode: 'required' },
    target: (inputs, context) => {
      const spanAttributes = (context.span.span as unknown as ReadableSpan).attributes;
      const { span: _span, ...rest } = context;
      seen = { inputs, context, text: JSON.stringify({ inputs, ...rest, spanAttributes }) };
      return EXPECTED;
    },
  });
});

afterAll(async () => {
  await svc.shutdown();
});

function received(): Seen {
  if (seen === undefined) throw new Error('the target was not invoked');
  return seen;
}

describe("runExperiment's target", () => {
  it('receives the inputs, the configuration and the case identity', () => {
    const { inputs, context } = received();
    expect(inputs).toEqual({ question: 'What is the capital of France?' });
    expect(Object.keys(context).sort()).toEqual(['config', 'item', 'span']);
    expect(context.config).toEqual({ model: 'tiny', temperature: 0 });
    expect(context.item).toMatchObject({
      externalKey: 'france',
      kind: 'case',
      inputs: { question: 'What is the capital of France?' },
    });
    expect(report.subjectIds).toHaveLength(1);
  });

  it('receives the files of the four roles the agent sees', () => {
    const { context } = received();
    expect(context.item.files.map((f) => [f.role, f.name, f.sha256, f.size])).toEqual(
      (['source', 'attached_template', 'attached_reference', 'original'] as const).map((role) => [
        role,
        file(role).name,
        file(role).sha256,
        file(role).data.length,
      ]),
    );
  });

  it('never receives expected', () => {
    const { context, text } = received();
    expect(context.item).not.toHaveProperty('expected');
    expect(text).not.toContain('expected-marker-5f1c');
  });

  it.each(['org_template', 'evaluator_reference'] as const)(
    'never receives the %s file, nor anything of it',
    (role) => {
      const { context, text } = received();
      expect(context.item.files.map((f) => f.role)).not.toContain(role);
      expect(text).not.toContain(file(role).name);
      expect(text).not.toContain(file(role).sha256);
      expect(text).not.toContain(role);
    },
  );

  it('never receives scorer definitions', () => {
    const { text } = received();
    expect(text).not.toContain(SCHEMA_MARKER);
    expect(text).not.toContain('json_schema');
    expect(text).not.toContain('exact_match');
    for (const id of scorerVersionIds) expect(text).not.toContain(id);
  });

  it("never receives the case's metadata (scorers read it)", () => {
    const { context, text } = received();
    expect(context.item).not.toHaveProperty('metadata');
    expect(text).not.toContain(METADATA_MARKER);
  });

  it('is scored against expected all the same', async () => {
    const results = await evals.client.listResults(report.runId);
    const exact = results.items.find((r) => r.scorerVersionId === scorerVersionIds[0]);
    expect(exact).toMatchObject({
      status: 'scored',
      metrics: [{ name: 'exact_match', value: true, passed: true }],
    });
  });
});
