/**
 * The reference server for the evaluation client's end-to-end tests, with a client per key
 * preset. Not part of the package's public API.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { type RunningServer, type StartServerOptions, startServer } from '@svc-run/server';
import { afterAll, beforeAll, expect } from 'vitest';
import { SvcApiError } from '../../../errors/svc-api-error.js';
import { createEvaluationClient, type EvaluationClient } from '../evaluation-client.js';

/** A started server and evaluation clients on it; valid inside tests after `beforeAll`. */
export interface EvalServer {
  readonly server: RunningServer;
  /** A client with the Read-and-write key. */
  readonly client: EvaluationClient;
  /** A client with the Read key. */
  readonly reader: EvaluationClient;
  /** A client with the Tracing key. */
  readonly tracer: EvaluationClient;
}

/**
 * Starts a server for the calling test file. The clients have the longest timeout allowed: a
 * loaded machine only makes a test slower, never a call's timeout.
 */
export function useEvalServer(options: StartServerOptions = {}): EvalServer {
  let server: RunningServer | undefined;
  let clients: { client: EvaluationClient; reader: EvaluationClient; tracer: EvaluationClient } | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    const make = (apiKey: string) =>
      createEvaluationClient({ apiKey, baseUrl: server!.origin, timeoutMillis: 60_000 });
    clients = {
      client: make(server.keys.readWrite),
      reader: make(server.keys.read),
      tracer: make(server.keys.tracing),
    };
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = () => {
    if (server === undefined || clients === undefined) throw new Error('the server starts in beforeAll');
    return { server, ...clients };
  };
  return {
    get server() {
      return started().server;
    },
    get client() {
      return started().client;
    },
    get reader() {
      return started().reader;
    },
    get tracer() {
      return started().tracer;
    },
  };
}

/** A unique slug for a test. */
export function uniqueSlug(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** An ID no record has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Awaits `promise`, expects it to reject with a {@link SvcApiError} of `status` (and `code` when
 * given) whose message holds none of `secrets`, and returns the error.
 */
export async function expectApiError(
  promise: Promise<unknown>,
  status: number,
  code?: string,
  secrets: readonly string[] = [],
): Promise<SvcApiError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a SvcApiError with status ${status}, but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(SvcApiError.isInstance(error), String(error)).toBe(true);
  const apiError = error as SvcApiError;
  expect(apiError.status, apiError.message).toBe(status);
  if (code !== undefined) expect(apiError.code).toBe(code);
  for (const secret of secrets) expect(apiError.message).not.toContain(secret);
  return apiError;
}

/** A case to write with {@link frozenVersion}. */
export interface FixtureCase {
  externalKey: string;
  inputs: unknown;
  expected?: unknown;
}

/** Creates a dataset version holding `cases` and freezes it; returns the version and case IDs. */
export async function frozenVersion(
  client: EvaluationClient,
  cases: readonly FixtureCase[],
): Promise<{ versionId: string; caseIds: string[] }> {
  const dataset = await client.createDataset({ name: 'Fixture set', slug: uniqueSlug('fixture') });
  const version = await client.createDatasetVersion(dataset.id);
  let revision = version.revision;
  const caseIds: string[] = [];
  for (const item of cases) {
    const written = await client.addCase(version.id, { expectedRevision: revision, ...item });
    caseIds.push(written.item.id);
    revision = written.version.revision;
  }
  await client.freezeDatasetVersion(version.id, revision);
  return { versionId: version.id, caseIds };
}

/** Publishes the exact-match built-in as a new scorer; returns the version ID. */
export async function exactMatchVersion(client: EvaluationClient): Promise<string> {
  const scorer = await client.createScorer({ name: 'Exact', slug: uniqueSlug('exact') });
  const version = await client.publishScorerVersion(scorer.id, {
    kind: 'builtin',
    builtin: 'exact_match',
    metrics: [{ name: 'exact_match', type: 'boolean' }],
  });
  return version.id;
}

/** An experiment whose every case has one completed execution. */
export interface CompletedExperiment {
  experimentId: string;
  runId: string;
  /** The evaluation items of the completions, in case order. */
  items: string[];
  /** Their subjects, in case order. */
  subjects: string[];
}

/**
 * Creates an experiment named `name` on `versionId` pinning `scorerVersionIds`, then starts and
 * completes (succeeded, with `output`) one execution of each of `caseIds`.
 */
export async function completedExperiment(
  client: EvaluationClient,
  experiment: { name: string; versionId: string; caseIds: readonly string[]; scorerVersionIds: string[] },
  output: unknown,
): Promise<CompletedExperiment> {
  const created = await client.createExperiment({
    idempotencyKey: client.newIdempotencyKey(),
    name: experiment.name,
    datasetVersionId: experiment.versionId,
    scorerVersionIds: experiment.scorerVersionIds,
  });
  const completed: CompletedExperiment = {
    experimentId: created.id,
    runId: created.evaluationRunId,
    items: [],
    subjects: [],
  };
  for (const caseId of experiment.caseIds) {
    const execution = await client.startExecution(created.id, caseId, {
      idempotencyKey: client.newIdempotencyKey(),
    });
    const done = await client.completeExecution(execution.id, {
      idempotencyKey: client.newIdempotencyKey(),
      state: 'succeeded',
      output,
    });
    completed.items.push(done.evaluationItemId);
    completed.subjects.push(done.subjectId);
  }
  return completed;
}
