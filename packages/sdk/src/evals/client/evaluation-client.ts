/**
 * `createEvaluationClient`: the client of the evaluation registry.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { ProjectConnection } from '../../connection/project-connection.js';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { displayOrigin } from '../../http/service-request.js';
import { requireSupportedRuntime } from '../../runtime/supported-runtime.js';
import { type DatasetMethods, datasetMethods } from './dataset-methods.js';
import { createEvalTransport } from './eval-transport.js';
import {
  type EvaluationClientOptions,
  validateEvaluationClientOptions,
} from './evaluation-client-options.js';
import { type ExperimentMethods, experimentMethods } from './experiment-methods.js';
import { type JudgeMethods, judgeMethods } from './judge-methods.js';
import { type LocalAgentMethods, localAgentMethods } from './local-agent-methods.js';
import { type RunMethods, runMethods } from './run-methods.js';
import { type ScenarioMethods, scenarioMethods } from './scenario-methods.js';
import { type ScorerMethods, scorerMethods } from './scorer-methods.js';

/** The evaluation client: every method of the spec's table, plus `checkConnection()`. */
export interface EvaluationClient
  extends DatasetMethods,
    ScorerMethods,
    ExperimentMethods,
    RunMethods,
    JudgeMethods,
    ScenarioMethods,
    LocalAgentMethods {
  /** The service origin the client calls. */
  readonly baseUrl: string;
  /**
   * Checks that the service accepts the key and returns the project it belongs to.
   * @throws {@link SvcApiError} when the key is refused (with `status`), or on a connection or
   *   response failure.
   */
  checkConnection(): Promise<ProjectConnection>;
  /** A new random idempotency key (a UUID), to save before a mutation and reuse to retry it. */
  newIdempotencyKey(): string;
}

function toConnection(json: Record<string, unknown>, origin: string): ProjectConnection {
  const { id, name, organizationId, slug } = json;
  if (
    typeof id !== 'string' ||
    typeof name !== 'string' ||
    typeof organizationId !== 'string' ||
    typeof slug !== 'string'
  ) {
    throw new SvcApiError(
      `checkConnection: the service at ${origin} sent an invalid project; check that baseUrl is the service origin.`,
    );
  }
  return { id, name, organizationId, slug };
}

/**
 * Creates an evaluation client. Options are validated once, here. Every method sends one request:
 * mutations carry an idempotency key and are never retried implicitly; a failure is a
 * {@link SvcApiError} (with `status` for an HTTP rejection) whose message never holds the service's
 * response body or the key.
 *
 * @example
 * ```ts
 * import { createEvaluationClient } from '@svc-run/sdk/evals';
 *
 * const evals = createEvaluationClient({ apiKey: process.env.SVC_API_KEY! });
 * const dataset = await evals.createDataset({ name: 'Support tickets', slug: 'support-tickets' });
 * const version = await evals.createDatasetVersion(dataset.id);
 * await evals.addCase(version.id, { expectedRevision: version.revision, externalKey: 't-1', inputs: { question: 'Refund?' } });
 * ```
 * @throws TypeError when an option is invalid (the message names it and its rule).
 * @throws UnsupportedRuntimeError on a runtime the SDK does not support (Node.js 20, for example).
 */
export function createEvaluationClient(options: EvaluationClientOptions): EvaluationClient {
  requireSupportedRuntime();
  const resolved = validateEvaluationClientOptions(options);
  const send = createEvalTransport(resolved);
  const origin = displayOrigin(resolved.baseUrl);
  return {
    baseUrl: resolved.baseUrl,
    checkConnection: async () =>
      toConnection(
        await send<Record<string, unknown>>({
          operation: 'checkConnection',
          method: 'GET',
          path: '/api/v1/projects/current',
        }),
        origin,
      ),
    newIdempotencyKey: () => randomUUID(),
    ...datasetMethods(send, resolved.timeoutMillis),
    ...scorerMethods(send),
    ...experimentMethods(send),
    ...runMethods(send),
    ...judgeMethods(send),
    ...scenarioMethods(send),
    ...localAgentMethods(send),
  };
}
