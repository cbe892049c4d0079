import { describe, expect, it } from 'vitest';
import { UNKNOWN_ID } from '../../evals/test-support/eval-requests.js';
import { useServer } from '../../test-support/server-fixture.js';
import { type Loose, scenarioRequests } from '../test-support/scenario-requests.js';
import { supportScenario } from '../test-support/support-scenario.js';

// The clock of liveness and leases, moved by the tests (no test waits for time to pass).
let now = Date.parse('2026-01-01T00:00:00Z');
const LIVE = 30_000;
const fx = useServer({ scenarios: { now: () => now, liveMillis: LIVE, pollIntervalMillis: 1_000 } });
const s = scenarioRequests(fx);

async function register(name: string) {
  const answer = await s.api.post<Loose>('/local-agents', { name, agentFile: 'agent.ts', host: 'laptop' });
  expect(answer.status).toBe(200);
  return answer.body;
}

const poll = async (agentId: string) =>
  (await s.api.post<Loose>(`/local-agents/${agentId}/poll`, {}, { idempotencyKey: null })).body;
const launch = (body: Record<string, unknown>) => s.api.post<Loose>('/launches', body);

/** Stops every worker still live and completes every launch left, so each test starts with neither. */
async function stopAll() {
  const agents = (await s.api.get<Loose>('/local-agents?limit=100')).body.items;
  for (const agent of agents) if (agent.live) await s.api.post(`/local-agents/${agent.id}/stop`, {});
  const drain = (await s.api.post<Loose>('/local-agents', { name: 'drain', agentFile: 'd.ts', host: 'h' }))
    .body.agent;
  for (;;) {
    const [lease] = (await poll(drain.id)).leases;
    if (lease === undefined) break;
    await s.api.post(`/launches/${lease.id}/complete`, { agentId: drain.id });
  }
  await s.api.post(`/local-agents/${drain.id}/stop`, {});
}

describe('local agents and launched runs', () => {
  it('registers a worker (live while it polls) and lists it', async () => {
    await stopAll();
    const registered = await register('worker-a');
    expect(registered).toMatchObject({
      agent: {
        name: 'worker-a',
        agentFile: 'agent.ts',
        host: 'laptop',
        live: true,
        stoppedAt: null,
        leases: 0,
      },
      pollIntervalMillis: 1_000,
      liveMillis: LIVE,
    });
    const listed = (await s.api.get<Loose>('/local-agents?limit=100', { key: fx.server.keys.read })).body
      .items;
    expect(listed.find((agent: { id: string }) => agent.id === registered.agent.id)).toMatchObject({
      live: true,
    });
    now += LIVE;
    expect(
      (await s.api.get<Loose>(`/local-agents?limit=100`)).body.items.find(
        (agent: { id: string }) => agent.id === registered.agent.id,
      ).live,
    ).toBe(false);
    expect((await poll(registered.agent.id)).agent.live).toBe(true);
  });

  it('refuses a launch with no live worker, with the reason, and makes nothing', async () => {
    await stopAll();
    const published = (await s.publish(supportScenario())).body as Loose;
    const refused = await launch({ scenarioId: published.scenario.slug });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { code: 'no_live_worker', message: expect.stringContaining('svc eval --worker') },
    });
    expect((await s.api.get<Loose>(`/scenarios/${published.scenario.id}/runs`)).body.items).toEqual([]);
    const stale = await register('stale');
    now += LIVE + 1;
    const notLive = await launch({ scenarioId: published.scenario.id, agentId: stale.agent.id });
    expect(notLive.status).toBe(409);
    expect(notLive.body).toMatchObject({
      error: { code: 'no_live_worker', message: expect.stringContaining('stale') },
    });
  });

  it('a launched run is leased by exactly one live worker, the one it was assigned to', async () => {
    await stopAll();
    const published = (await s.publish(supportScenario())).body as Loose;
    const a = await register('a');
    const b = await register('b');
    const launched = await launch({ scenarioId: published.scenario.id, agentId: b.agent.id, trials: 2 });
    expect(launched.status).toBe(200);
    expect(launched.body.launch).toMatchObject({
      state: 'queued',
      agentId: b.agent.id,
      trials: 2,
      leases: 0,
    });
    expect(launched.body.launch.runUrl).toBe(
      `${fx.server.origin}/scenarios/runs/${launched.body.launch.runId}`,
    );
    const [fromA, fromB] = await Promise.all([poll(a.agent.id), poll(b.agent.id)]);
    expect(fromA.leases).toEqual([]);
    expect(fromB.leases).toEqual([
      expect.objectContaining({ id: launched.body.launch.id, state: 'leased', agentId: b.agent.id }),
    ]);
    // Polling again answers the same lease (a lost answer loses nothing) and takes no other.
    expect((await poll(b.agent.id)).leases.map((lease: { id: string }) => lease.id)).toEqual([
      launched.body.launch.id,
    ]);
    const run = (await s.api.get<Loose>(`/scenario-runs/${launched.body.launch.runId}`)).body;
    expect(run).toMatchObject({ trials: 2, scenarioVersionId: published.version.id });
    const completed = await s.api.post<Loose>(`/launches/${launched.body.launch.id}/complete`, {
      agentId: b.agent.id,
    });
    expect(completed.body).toMatchObject({ state: 'completed' });
    expect((await poll(b.agent.id)).leases).toEqual([]);
  });

  it('picks the least busy live worker when none is asked for', async () => {
    await stopAll();
    const published = (await s.publish(supportScenario())).body as Loose;
    const busy = await register('busy');
    const first = (await launch({ scenarioId: published.scenario.id })).body.launch;
    expect(first.agentId).toBe(busy.agent.id);
    await poll(busy.agent.id);
    const idle = await register('idle');
    const second = (await launch({ scenarioId: published.scenario.id })).body;
    expect(second.agent.id).toBe(idle.agent.id);
  });

  it('lets another worker take a launch whose lease expired; the first can no longer complete it', async () => {
    await stopAll();
    const published = (await s.publish(supportScenario())).body as Loose;
    const a = await register('a');
    const launched = (await launch({ scenarioId: published.scenario.id, agentId: a.agent.id })).body.launch;
    expect((await poll(a.agent.id)).leases).toHaveLength(1);
    const b = await register('b');
    expect((await poll(b.agent.id)).leases).toEqual([]);
    now += LIVE + 1; // a stops polling: its lease lapses
    const taken = await poll(b.agent.id);
    expect(taken.leases).toEqual([
      expect.objectContaining({ id: launched.id, agentId: b.agent.id, leases: 2 }),
    ]);
    const late = await s.api.post<Loose>(`/launches/${launched.id}/complete`, { agentId: a.agent.id });
    expect(late.status).toBe(409);
    expect((await poll(a.agent.id)).leases).toEqual([]);
  });

  it('a released launch goes back to the queue; stopping releases what a worker holds and ends its polls', async () => {
    await stopAll();
    const published = (await s.publish(supportScenario())).body as Loose;
    const a = await register('a');
    const launched = (await launch({ scenarioId: published.scenario.id })).body.launch;
    await poll(a.agent.id);
    const released = await s.api.post<Loose>(`/launches/${launched.id}/release`, { agentId: a.agent.id });
    expect(released.body).toMatchObject({ state: 'queued', agentId: null });
    const b = await register('b');
    expect((await poll(b.agent.id)).leases.map((lease: { id: string }) => lease.id)).toEqual([launched.id]);
    const stopped = await s.api.post<Loose>(`/local-agents/${b.agent.id}/stop`, {});
    expect(stopped.body).toMatchObject({ live: false, stoppedAt: expect.any(String), leases: 0 });
    expect((await s.api.get<Loose>(`/launches/${launched.id}`)).body).toMatchObject({
      state: 'queued',
      agentId: null,
    });
    const refused = await s.api.post<Loose>(`/local-agents/${b.agent.id}/poll`, {}, { idempotencyKey: null });
    expect(refused.status).toBe(409);
    expect((await poll(a.agent.id)).leases.map((lease: { id: string }) => lease.id)).toEqual([launched.id]);
  });

  it('refuses unknown agents and launches, and a release by a worker that does not hold the launch', async () => {
    expect((await s.api.post(`/local-agents/${UNKNOWN_ID}/poll`, {}, { idempotencyKey: null })).status).toBe(
      404,
    );
    expect((await s.api.get(`/launches/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await launch({})).status).toBe(422);
    const published = (await s.publish(supportScenario())).body as Loose;
    const a = await register('a');
    const launched = (await launch({ scenarioId: published.scenario.id, agentId: a.agent.id })).body.launch;
    const b = await register('b');
    expect((await s.api.post(`/launches/${launched.id}/release`, { agentId: b.agent.id })).status).toBe(409);
    expect(
      (
        await s.api.post(
          '/local-agents',
          { name: 'x', agentFile: 'a.ts', host: 'h' },
          { key: fx.server.keys.read },
        )
      ).status,
    ).toBe(403);
  });
});
