/**
 * Checks that a key is a Read-and-write key of the service, without writing anything: the project
 * check, then a registry read, then a read that only Read-and-write keys may make.
 * @module
 */
import type { ProjectConnection } from '@svc-run/sdk';
import { createEvaluationClient, type EvaluationClient, SvcApiError } from '@svc-run/sdk/evals';
import { CliError } from '../cli-error.js';
import { ExitCode } from '../exit-codes.js';

/** An ID no record has: reading it tells the key's rights without reading anything. */
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The longest timeout the client allows: a slow service makes the check slower, never fail. */
const TIMEOUT_MILLIS = 60_000;

/** A checked key: its project and an evaluation client with it. */
export interface CheckedKey {
  project: ProjectConnection;
  client: EvaluationClient;
}

function refused(origin: string, why: string): CliError {
  return new CliError(`the service at ${origin} refused the key: ${why}`, ExitCode.Failure);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates an evaluation client for `baseUrl` and `apiKey` and checks the key:
 * 1. `GET /api/v1/projects/current` (the project check): a key the service does not know is refused;
 * 2. `GET /api/v1/evals/datasets?limit=1` (a registry read): a tracing key or a setup credential is
 *    refused (403);
 * 3. `GET /api/v1/evals/trace-snapshots/{unknown ID}`: trace snapshots are read with Read-and-write
 *    keys only, so a Read key is refused (403) and a Read-and-write key is told the snapshot does
 *    not exist (404).
 *
 * @throws {@link CliError}: exit code 2 for an origin the client refuses (not an origin, HTTP to a
 *   host that is not loopback); 1 with the reason for a refused key or an unreachable service.
 *   Messages never hold the key or the service's answer.
 */
export async function checkReadWriteKey(baseUrl: string, apiKey: string): Promise<CheckedKey> {
  let client: EvaluationClient;
  try {
    client = createEvaluationClient({ apiKey, baseUrl, timeoutMillis: TIMEOUT_MILLIS });
  } catch (error) {
    throw new CliError(`invalid service origin or key: ${messageOf(error)}`, ExitCode.Usage, {
      cause: error,
    });
  }
  const origin = client.baseUrl;
  let project: ProjectConnection;
  try {
    project = await client.checkConnection();
  } catch (error) {
    if (SvcApiError.isInstance(error) && (error.status === 401 || error.status === 403)) {
      throw refused(
        origin,
        `it is not a key of a project of this service, or it was revoked (HTTP ${error.status}).`,
      );
    }
    throw new CliError(`cannot check the key: ${messageOf(error)}`, ExitCode.Failure, { cause: error });
  }
  try {
    await client.listDatasets({ limit: 1 });
  } catch (error) {
    if (SvcApiError.isInstance(error) && error.status === 403) {
      throw refused(
        origin,
        'it is a tracing key (or a setup credential), which cannot use the evaluation registry. Use a Read-and-write key of the project.',
      );
    }
    throw new CliError(`cannot check the key: ${messageOf(error)}`, ExitCode.Failure, { cause: error });
  }
  let status: number;
  try {
    const response = await fetch(new URL(`/api/v1/evals/trace-snapshots/${UNKNOWN_ID}`, origin), {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MILLIS),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    throw new CliError(`cannot check the key: no answer from ${origin}.`, ExitCode.Failure, { cause: error });
  }
  if (status === 403) {
    throw refused(
      origin,
      'it is a Read key, which reads the registry but cannot write to it. Use a Read-and-write key of the project.',
    );
  }
  if (status !== 404) {
    throw new CliError(
      `cannot check the key: the service at ${origin} answered HTTP ${status} to a registry read.`,
      ExitCode.Failure,
    );
  }
  return { project, client };
}
