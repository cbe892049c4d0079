/**
 * In-process requests to the scenario routes and the world routes, for the scenario tests. Not
 * part of the package's public API.
 * @module
 */
import {
  type EvalAnswer,
  type EvalRequestOptions,
  evalRequests,
} from '../../evals/test-support/eval-requests.js';
import type { ServerFixture } from '../../test-support/server-fixture.js';

/** An answer read loosely, member by member. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers member by member
export type Loose = any;

/** A started trial as the start route answers it. */
export interface StartedTrial {
  trial: { id: string; worldId: string; caseKey: string; trial: number; state: string; closed: boolean };
  token: string | null;
  world: { id: string; mcpUrl: string; toolsUrl: string };
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  inputs: unknown;
  files: { name: string; content: string; sha256: string; size: number }[];
}

/** A trial as the API shows it. */
export interface TrialJson {
  id: string;
  state: string;
  closed: boolean;
  seal: string | null;
  outcome: string | null;
  checks: { name: string; kind: string; required: boolean; status: string }[];
  failedChecks: string[];
  executionId: string | null;
  evaluationItemId: string | null;
  toolCallCount: number;
  output?: unknown;
  finalState?: unknown;
}

/** Request helpers for scenarios, bound to a server fixture. */
export function scenarioRequests(fx: ServerFixture) {
  const api = evalRequests(fx);
  const ok = <T>(answer: EvalAnswer<T>, what: string): T => {
    if (answer.status !== 200)
      throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    api,
    /** Publishes a document; its answer. */
    publish: (document: unknown, options?: EvalRequestOptions) => api.post('/scenarios', document, options),
    /** Publishes a document that must be valid; its version ID. */
    async publishOk(document: unknown): Promise<string> {
      return ok(await api.post<{ version: { id: string } }>('/scenarios', document), 'publish').version.id;
    },
    /** Creates a run of a version; its ID. */
    async run(scenarioVersionId: string, trials = 1): Promise<string> {
      return ok(await api.post<{ id: string }>('/scenario-runs', { scenarioVersionId, trials }), 'run').id;
    },
    /** Starts a trial; its answer. */
    async start(
      runId: string,
      caseKey: string,
      trial = 1,
      options?: EvalRequestOptions,
    ): Promise<StartedTrial> {
      return ok(
        await api.post<StartedTrial>(`/scenario-runs/${runId}/trials`, { caseKey, trial }, options),
        'start',
      );
    },
    /** Calls a world's tool over HTTP with `token`. */
    async call(
      worldId: string,
      token: string,
      tool: string,
      args: unknown,
    ): Promise<{ status: number; body: Loose }> {
      const res = await fx.request(`/api/v1/worlds/${worldId}/tools/${tool}`, {
        method: 'POST',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: res.status, body: await res.json() };
    },
    /** Seals a trial; its answer. */
    seal: (trialId: string, body: unknown, options?: EvalRequestOptions) =>
      api.post<TrialJson>(`/trials/${trialId}/seal`, body, options),
    /** A trial. */
    async trial(trialId: string): Promise<TrialJson> {
      return ok(await api.get<TrialJson>(`/trials/${trialId}`), 'trial');
    },
    /** A run's summary. */
    async summary(runId: string): Promise<Loose> {
      return ok(await api.get(`/scenario-runs/${runId}`), 'summary');
    },
  };
}
