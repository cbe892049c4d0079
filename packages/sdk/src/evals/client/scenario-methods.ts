/**
 * The scenario methods of the evaluation client: documents, versions, runs, trials and seals.
 * @module
 */
import type { Page, PageOptions, RequestOptions } from '../types/common-types.js';
import type { ScenarioDocument } from '../types/scenario-document.js';
import type {
  CreateScenarioRunInput,
  PublishedScenario,
  Scenario,
  ScenarioRun,
  ScenarioRunRecord,
  ScenarioVersion,
  SealTrialInput,
  StartedTrial,
  StartTrialInput,
  ToolCall,
  Trial,
} from '../types/scenario-types.js';
import { idSegment, keyedPost, optionalIdempotencyKey, pageQuery, requireObject } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Scenarios and their runs. */
export interface ScenarioMethods {
  /**
   * Publishes a scenario document (as read from its JSON or YAML file). A document differing from
   * every version of its slug makes a new version; the same document answers its version
   * (`created: false`). An invalid one is refused (400 or 422, code `invalid_scenario`) with
   * every problem in the error's `problems` (`{ path, message }`, path a JSON Pointer).
   */
  publishScenario(document: ScenarioDocument, options?: RequestOptions): Promise<PublishedScenario>;
  /** A page of scenarios, oldest first. */
  listScenarios(page?: PageOptions): Promise<Page<Scenario>>;
  /** Reads a scenario by its ID or its slug. */
  getScenario(idOrSlug: string): Promise<Scenario>;
  /** A page of a scenario's versions (public parts), oldest first. */
  listScenarioVersions(idOrSlug: string, page?: PageOptions): Promise<Page<ScenarioVersion>>;
  /** Reads a version's public part: tools and cases, never the world's data or the grading. */
  getScenarioVersion(versionId: string): Promise<ScenarioVersion>;
  /** Creates a run of a version (an experiment of the registry). */
  createScenarioRun(input: CreateScenarioRunInput): Promise<ScenarioRun>;
  /** A run's summary: every case's trials, outcomes, failed checks by name, pass^k. */
  getScenarioRun(runId: string): Promise<ScenarioRun>;
  /** A page of a scenario's runs, oldest first. */
  listScenarioRuns(idOrSlug: string, page?: PageOptions): Promise<Page<ScenarioRunRecord>>;
  /**
   * Starts a trial: a fresh world instance and its token. A retry with the same idempotency key
   * answers the same trial and token; each (case, trial) starts once (409 `conflict` after).
   */
  startTrial(runId: string, input: StartTrialInput): Promise<StartedTrial>;
  /** Reads a trial. */
  getTrial(trialId: string): Promise<Trial>;
  /** A page of a trial's tool calls, in call order. */
  listTrialToolCalls(trialId: string, page?: PageOptions): Promise<Page<ToolCall>>;
  /**
   * Seals a trial with the agent's output (or error) and grades it. A retry with the same
   * idempotency key answers the same seal; any other seal is refused (409 `already_sealed`).
   */
  sealTrial(trialId: string, input: SealTrialInput): Promise<Trial>;
}

const BASE = '/api/v1/evals';

/** The scenario methods on `send`. */
export function scenarioMethods(send: EvalTransport): ScenarioMethods {
  return {
    publishScenario: async (document, options) =>
      send({
        operation: 'publishScenario',
        method: 'POST',
        path: `${BASE}/scenarios`,
        body: requireObject('document', document),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    listScenarios: async (page) =>
      send({ operation: 'listScenarios', method: 'GET', path: `${BASE}/scenarios`, query: pageQuery(page) }),
    getScenario: async (idOrSlug) =>
      send({
        operation: 'getScenario',
        method: 'GET',
        path: `${BASE}/scenarios/${idSegment('idOrSlug', idOrSlug)}`,
      }),
    listScenarioVersions: async (idOrSlug, page) =>
      send({
        operation: 'listScenarioVersions',
        method: 'GET',
        path: `${BASE}/scenarios/${idSegment('idOrSlug', idOrSlug)}/versions`,
        query: pageQuery(page),
      }),
    getScenarioVersion: async (versionId) =>
      send({
        operation: 'getScenarioVersion',
        method: 'GET',
        path: `${BASE}/scenario-versions/${idSegment('versionId', versionId)}`,
      }),
    createScenarioRun: async (input) => send(keyedPost('createScenarioRun', `${BASE}/scenario-runs`, input)),
    getScenarioRun: async (runId) =>
      send({
        operation: 'getScenarioRun',
        method: 'GET',
        path: `${BASE}/scenario-runs/${idSegment('runId', runId)}`,
      }),
    listScenarioRuns: async (idOrSlug, page) =>
      send({
        operation: 'listScenarioRuns',
        method: 'GET',
        path: `${BASE}/scenarios/${idSegment('idOrSlug', idOrSlug)}/runs`,
        query: pageQuery(page),
      }),
    startTrial: async (runId, input) =>
      send(keyedPost('startTrial', `${BASE}/scenario-runs/${idSegment('runId', runId)}/trials`, input)),
    getTrial: async (trialId) =>
      send({ operation: 'getTrial', method: 'GET', path: `${BASE}/trials/${idSegment('trialId', trialId)}` }),
    listTrialToolCalls: async (trialId, page) =>
      send({
        operation: 'listTrialToolCalls',
        method: 'GET',
        path: `${BASE}/trials/${idSegment('trialId', trialId)}/tool-calls`,
        query: pageQuery(page),
      }),
    sealTrial: async (trialId, input) =>
      send(keyedPost('sealTrial', `${BASE}/trials/${idSegment('trialId', trialId)}/seal`, input)),
  };
}
