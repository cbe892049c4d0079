/**
 * The local-agent methods of the evaluation client: what a worker (`svc eval --worker`) calls to
 * serve launched runs, and the launch itself.
 * @module
 */
import type { Page, PageOptions } from '../types/common-types.js';
import type {
  HeldLaunchInput,
  Launch,
  LaunchedRun,
  LaunchLocalRunInput,
  LocalAgent,
  LocalAgentPoll,
  RegisteredLocalAgent,
  RegisterLocalAgentInput,
} from '../types/scenario-types.js';
import { idSegment, keyedPost, pageQuery, requireIdempotencyKey } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Local agents and launched runs. */
export interface LocalAgentMethods {
  /** Registers a worker; it is live while it polls (every `pollIntervalMillis`). */
  registerLocalAgent(input: RegisterLocalAgentInput): Promise<RegisteredLocalAgent>;
  /** A page of workers, oldest first. */
  listLocalAgents(page?: PageOptions): Promise<Page<LocalAgent>>;
  /**
   * A worker's poll: its heartbeat; renews its leases and leases it the next launch when it holds
   * none. Answers every launch it holds, so it is safe to repeat (no idempotency key).
   */
  pollLocalAgent(agentId: string): Promise<LocalAgentPoll>;
  /** Stops a worker: what it holds goes back to the queue. */
  stopLocalAgent(agentId: string, idempotencyKey: string): Promise<LocalAgent>;
  /**
   * Launches a run of a scenario on a live worker. With none live it is refused (409
   * `no_live_worker`) and nothing is made.
   */
  launchLocalRun(input: LaunchLocalRunInput): Promise<LaunchedRun>;
  /** Reads a launch. */
  getLaunch(launchId: string): Promise<Launch>;
  /** Gives a held launch back to the queue (a worker stopping before its run is done). */
  releaseLaunch(launchId: string, input: HeldLaunchInput): Promise<Launch>;
  /** Completes a held launch: its run is done. */
  completeLaunch(launchId: string, input: HeldLaunchInput): Promise<Launch>;
}

const BASE = '/api/v1/evals';

/** The local-agent methods on `send`. */
export function localAgentMethods(send: EvalTransport): LocalAgentMethods {
  return {
    registerLocalAgent: async (input) => send(keyedPost('registerLocalAgent', `${BASE}/local-agents`, input)),
    listLocalAgents: async (page) =>
      send({
        operation: 'listLocalAgents',
        method: 'GET',
        path: `${BASE}/local-agents`,
        query: pageQuery(page),
      }),
    pollLocalAgent: async (agentId) =>
      send({
        operation: 'pollLocalAgent',
        method: 'POST',
        path: `${BASE}/local-agents/${idSegment('agentId', agentId)}/poll`,
        body: {},
      }),
    stopLocalAgent: async (agentId, idempotencyKey) =>
      send({
        operation: 'stopLocalAgent',
        method: 'POST',
        path: `${BASE}/local-agents/${idSegment('agentId', agentId)}/stop`,
        body: {},
        idempotencyKey: requireIdempotencyKey('idempotencyKey', idempotencyKey),
      }),
    launchLocalRun: async (input) => send(keyedPost('launchLocalRun', `${BASE}/launches`, input)),
    getLaunch: async (launchId) =>
      send({
        operation: 'getLaunch',
        method: 'GET',
        path: `${BASE}/launches/${idSegment('launchId', launchId)}`,
      }),
    releaseLaunch: async (launchId, input) =>
      send(keyedPost('releaseLaunch', `${BASE}/launches/${idSegment('launchId', launchId)}/release`, input)),
    completeLaunch: async (launchId, input) =>
      send(
        keyedPost('completeLaunch', `${BASE}/launches/${idSegment('launchId', launchId)}/complete`, input),
      ),
  };
}
