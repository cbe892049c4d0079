/**
 * Test support for `svc eval`: the reference server in the test process (an empty data directory
 * per test file), an evaluation client with its Read-and-write key, eval sets and scorers made
 * through the SDK, and the env file `svc eval` reads.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CaseFileInput,
  createEvaluationClient,
  type EvaluationClient,
  type ScorerDefinition,
} from '@svc-run/sdk/evals';
import { type RunningServer, type StartServerOptions, startServer } from '@svc-run/server';
import { afterAll, beforeAll } from 'vitest';

/** The test agent (`agents/test-agent.mjs`), as a command for `--command`. */
export const TEST_AGENT_COMMAND = `"${process.execPath}" "${fileURLToPath(new URL('./agents/test-agent.mjs', import.meta.url))}"`;

/** A started server, an evaluation client with its Read-and-write key, and temporary directories. */
export interface EvalService {
  readonly server: RunningServer;
  readonly client: EvaluationClient;
  /** A new empty temporary directory, removed after the file's tests. */
  directory(prefix: string): Promise<string>;
}

/** Starts a server for the calling test file. */
export function useEvalService(options: Omit<StartServerOptions, 'dataDir'> = {}): EvalService {
  let server: RunningServer | undefined;
  let client: EvaluationClient | undefined;
  const directories: string[] = [];
  const directory = async (prefix: string) => {
    const made = await mkdtemp(join(tmpdir(), `svc-eval-${prefix}-`));
    directories.push(made);
    return made;
  };
  beforeAll(async () => {
    server = await startServer({ ...options, dataDir: await directory('data') });
    // The longest timeout: a loaded machine only makes a test slower.
    client = createEvaluationClient({
      apiKey: server.keys.readWrite,
      baseUrl: server.origin,
      timeoutMillis: 60_000,
    });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(directories.map((made) => rm(made, { recursive: true, force: true })));
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the server starts in beforeAll');
      return server;
    },
    get client() {
      if (client === undefined) throw new Error('the server starts in beforeAll');
      return client;
    },
    directory,
  };
}

/** A unique slug for a test. */
export function uniqueSlug(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Writes an env file for `svc eval` in `directory`: the origin and `key` as `SVC_API_KEY`. */
export async function writeEvalEnvFile(
  directory: string,
  server: RunningServer,
  key: string,
): Promise<string> {
  const path = join(directory, 'eval.env');
  await writeFile(path, `SVC_BASE_URL=${server.origin}\nSVC_API_KEY=${key}\n`, { mode: 0o600 });
  return path;
}

/** A case of a test eval set. */
export interface TestCase {
  externalKey: string;
  inputs: unknown;
  expected?: unknown;
  /** Defaults to one `source` file. */
  files?: CaseFileInput[];
}

/** Creates an eval set (a dataset) with one frozen version holding `cases`; resolves to its slug and IDs. */
export async function createEvalSet(client: EvaluationClient, prefix: string, cases: readonly TestCase[]) {
  const slug = uniqueSlug(prefix);
  const dataset = await client.createDataset({ name: slug, slug });
  let version = await client.createDatasetVersion(dataset.id);
  for (const item of cases) {
    const written = await client.addEvalSetCase(version.id, {
      expectedRevision: version.revision,
      externalKey: item.externalKey,
      inputs: item.inputs,
      ...('expected' in item ? { expected: item.expected } : {}),
      files: item.files ?? [
        {
          role: 'source',
          name: `${item.externalKey}.txt`,
          contentType: 'text/plain',
          data: Buffer.from(`document of ${item.externalKey}`),
        },
      ],
    });
    version = written.version;
  }
  version = await client.freezeDatasetVersion(version.id, version.revision);
  return { slug, datasetId: dataset.id, version };
}

/** Creates a scorer with one version of `definition`; resolves to its slug and version ID. */
export async function createScorer(client: EvaluationClient, prefix: string, definition: ScorerDefinition) {
  const slug = uniqueSlug(prefix);
  const scorer = await client.createScorer({ name: slug, slug });
  const version = await client.publishScorerVersion(scorer.id, definition);
  return { slug, scorerId: scorer.id, versionId: version.id };
}
