/**
 * For the auth matrix: a request to every key-authenticated scenario route that succeeds, with the
 * success each must answer, given a key allowed to make it (the scenarios' part of
 * `eval-route-calls.ts`). What a request needs first (a published scenario, a run, a started
 * trial, a live local agent holding a launch) is made with the Read-and-write key. Not part of the
 * package's public API.
 * @module
 */
import { expect } from 'vitest';
import { type EvalAnswer, evalRequests } from '../evals/test-support/eval-requests.js';
import { supportScenario } from '../scenarios/test-support/support-scenario.js';
import type { EvalRouteCall } from './eval-route-calls.js';
import type { ServerFixture } from './server-fixture.js';

const anId = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const aPage = { items: expect.any(Array) };

/** The calls, by route. */
export function scenarioRouteCalls(fx: ServerFixture) {
  const api = evalRequests(fx);
  const ok = async <T>(answer: Promise<EvalAnswer<T>>): Promise<T> => {
    const read = await answer;
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return read.body;
  };
  const published = async () =>
    ok(api.post<{ scenario: { id: string }; version: { id: string } }>('/scenarios', supportScenario()));
  const aRun = async () => {
    const { scenario, version } = await published();
    const run = await ok(api.post<{ id: string }>('/scenario-runs', { scenarioVersionId: version.id }));
    return { scenarioId: scenario.id, versionId: version.id, runId: run.id };
  };
  const aTrial = async () => {
    const { runId } = await aRun();
    const started = await ok(
      api.post<{ trial: { id: string } }>(`/scenario-runs/${runId}/trials`, {
        caseKey: 'refund-delivered',
        trial: 1,
      }),
    );
    return { runId, trialId: started.trial.id };
  };
  const anAgent = async () =>
    (
      await ok(
        api.post<{ agent: { id: string } }>('/local-agents', {
          name: 'worker',
          agentFile: 'agent.ts',
          host: 'test-host',
        }),
      )
    ).agent.id;
  /** A launch held by a live agent (launched for it, leased by its poll). */
  const aLease = async () => {
    const agentId = await anAgent();
    const { scenarioId } = await aRun();
    const { launch } = await ok(api.post<{ launch: { id: string } }>('/launches', { scenarioId, agentId }));
    await ok(api.post(`/local-agents/${agentId}/poll`, {}, { idempotencyKey: null }));
    return { agentId, launchId: launch.id };
  };

  const calls: Partial<Record<string, (key: string) => Promise<EvalRouteCall>>> = {
    'evals.scenarios.publish': async (key) => {
      const document = supportScenario();
      return {
        answer: await api.post('/scenarios', document, { key }),
        success: {
          scenario: { id: anId, slug: document.slug },
          version: { id: anId, number: 1 },
          created: true,
        },
      };
    },
    'evals.scenarios.list': async (key) => {
      await published();
      return { answer: await api.get('/scenarios?limit=1', { key }), success: aPage };
    },
    'evals.scenarios.get': async (key) => {
      const { scenario } = await published();
      return { answer: await api.get(`/scenarios/${scenario.id}`, { key }), success: { id: scenario.id } };
    },
    'evals.scenarios.versions': async (key) => {
      const { scenario, version } = await published();
      return {
        answer: await api.get(`/scenarios/${scenario.id}/versions`, { key }),
        success: { items: [expect.objectContaining({ id: version.id })] },
      };
    },
    'evals.scenarios.runs': async (key) => {
      const { scenarioId } = await aRun();
      return { answer: await api.get(`/scenarios/${scenarioId}/runs`, { key }), success: aPage };
    },
    'evals.scenarioVersions.get': async (key) => {
      const { version } = await published();
      return {
        answer: await api.get(`/scenario-versions/${version.id}`, { key }),
        success: { id: version.id, tools: expect.any(Array), cases: expect.any(Array) },
      };
    },
    'evals.scenarioRuns.create': async (key) => {
      const { version } = await published();
      return {
        answer: await api.post('/scenario-runs', { scenarioVersionId: version.id }, { key }),
        success: { id: anId },
      };
    },
    'evals.scenarioRuns.get': async (key) => {
      const { runId } = await aRun();
      return { answer: await api.get(`/scenario-runs/${runId}`, { key }), success: { id: runId } };
    },
    'evals.trials.start': async (key) => {
      const { runId } = await aRun();
      return {
        answer: await api.post(
          `/scenario-runs/${runId}/trials`,
          { caseKey: 'refund-delivered', trial: 1 },
          { key },
        ),
        success: { trial: { id: anId }, token: expect.stringMatching(/^svc_trial_/) },
      };
    },
    'evals.trials.get': async (key) => {
      const { trialId } = await aTrial();
      return {
        answer: await api.get(`/trials/${trialId}`, { key }),
        success: { id: trialId, state: 'open' },
      };
    },
    'evals.trials.toolCalls': async (key) => {
      const { trialId } = await aTrial();
      return { answer: await api.get(`/trials/${trialId}/tool-calls`, { key }), success: { items: [] } };
    },
    'evals.trials.seal': async (key) => {
      const { trialId } = await aTrial();
      return {
        answer: await api.post(`/trials/${trialId}/seal`, { output: 'Your refund is on its way.' }, { key }),
        success: { id: trialId, state: 'sealed' },
      };
    },
    'evals.localAgents.register': async (key) => ({
      answer: await api.post(
        '/local-agents',
        { name: 'worker', agentFile: 'agent.ts', host: 'test-host' },
        { key },
      ),
      success: { agent: { id: anId, name: 'worker' } },
    }),
    'evals.localAgents.list': async (key) => {
      await anAgent();
      return { answer: await api.get('/local-agents', { key }), success: aPage };
    },
    'evals.localAgents.poll': async (key) => {
      const agentId = await anAgent();
      return {
        answer: await api.post(`/local-agents/${agentId}/poll`, {}, { key, idempotencyKey: null }),
        success: { agent: { id: agentId }, leases: expect.any(Array) },
      };
    },
    'evals.localAgents.stop': async (key) => {
      const agentId = await anAgent();
      return {
        answer: await api.post(`/local-agents/${agentId}/stop`, {}, { key }),
        success: { id: agentId },
      };
    },
    'evals.launches.create': async (key) => {
      const agentId = await anAgent();
      const { scenarioId } = await aRun();
      return {
        answer: await api.post('/launches', { scenarioId, agentId }, { key }),
        success: { launch: { id: anId }, agent: { id: agentId } },
      };
    },
    'evals.launches.get': async (key) => {
      const { launchId } = await aLease();
      return { answer: await api.get(`/launches/${launchId}`, { key }), success: { id: launchId } };
    },
    'evals.launches.release': async (key) => {
      const { agentId, launchId } = await aLease();
      return {
        answer: await api.post(`/launches/${launchId}/release`, { agentId }, { key }),
        success: { id: launchId },
      };
    },
    'evals.launches.complete': async (key) => {
      const { agentId, launchId } = await aLease();
      return {
        answer: await api.post(`/launches/${launchId}/complete`, { agentId }, { key }),
        success: { id: launchId },
      };
    },
  };
  return calls;
}
