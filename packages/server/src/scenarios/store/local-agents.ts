/**
 * Local agents (workers of `svc eval --worker`) and the runs launched for them.
 *
 * - A worker registers (name, agent file, host, start time) and polls. Each poll is its heartbeat:
 *   it is live while its last poll is more recent than the liveness window, and until it stops.
 * - A launch creates the scenario run at once and assigns it to a live worker (the one asked for,
 *   else the live worker holding the fewest launches, then the most recently seen). With no live
 *   worker, the launch is refused (409 `no_live_worker`) with the reason, and nothing is made.
 * - A poll renews the worker's leases and, when it holds none, leases it the oldest launch it may
 *   take: one assigned to it, one whose worker is no longer live, or one whose lease expired. The
 *   lease is taken in the poll's transaction, so exactly one worker holds a launch; the poll
 *   answers every launch the worker holds, so an answer lost on the way is not a launch lost.
 * - A worker completes a launch when its run is done, or releases it (Ctrl-C: it goes back to the
 *   queue for any live worker). Stopping releases everything the worker holds.
 * Methods run inside the calling route's transaction.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { type Page, type PageRequest, readPage } from '../../evals/core/paging.js';
import { ApiError } from '../../http/api-error.js';
import { runUrl } from '../scenario-links.js';
import type { ResolvedScenarioOptions } from '../scenario-options.js';
import type { RunRecord, ScenarioRunStore } from './run-store.js';
import type { ScenarioStore } from './scenario-store.js';

/** A local agent as the API shows it. */
export interface LocalAgent {
  id: string;
  name: string;
  agentFile: string;
  host: string;
  startedAt: string;
  registeredAt: string;
  lastSeenAt: string;
  live: boolean;
  stoppedAt: string | null;
  /** Launches it holds now. */
  leases: number;
}

/** A launch as the API shows it. */
export interface Launch {
  id: string;
  runId: string;
  runUrl: string;
  scenarioId: string;
  scenarioVersionId: string;
  trials: number;
  /** `queued` (waiting for its worker), `leased` (a worker serves it), `completed`. */
  state: 'queued' | 'leased' | 'completed';
  agentId: string | null;
  leaseExpiresAt: string | null;
  /** How many times it was leased (more than once: a worker stopped or vanished while serving it). */
  leases: number;
  createdAt: string;
  completedAt: string | null;
}

/** What registers a worker. */
export interface RegisterAgent {
  name: string;
  agentFile: string;
  host: string;
  startedAt?: string | undefined;
}

/** What launches a run. */
export interface LaunchRun {
  /** The scenario (ID or slug): its newest version runs unless `scenarioVersionId` is given. */
  scenarioId?: string | undefined;
  scenarioVersionId?: string | undefined;
  trials?: number | undefined;
  /** The worker to serve it; default: a live worker chosen by the service. */
  agentId?: string | undefined;
  name?: string | undefined;
}

interface AgentRow {
  seq: number;
  id: string;
  name: string;
  agent_file: string;
  host: string;
  started_at: string;
  registered_at: string;
  last_seen_ms: number;
  stopped_at: string | null;
  leases: number;
}

interface LaunchRow {
  seq: number;
  id: string;
  run_id: string;
  agent_id: string | null;
  state: Launch['state'];
  lease_expires_ms: number | null;
  leases: number;
  created_at: string;
  completed_at: string | null;
}

const AGENT_SELECT = `SELECT a.*, (SELECT COUNT(*) FROM scenario_launches l WHERE l.agent_id = a.id AND l.state = 'leased') AS leases
  FROM scenario_local_agents a`;

/** Local agents and launches. */
export class LocalAgents {
  readonly #options: ResolvedScenarioOptions;
  readonly #scenarios: ScenarioStore;
  readonly #runs: ScenarioRunStore;
  readonly #sql: Record<string, StatementSync>;

  constructor(
    options: ResolvedScenarioOptions,
    stores: { scenarios: ScenarioStore; runs: ScenarioRunStore },
  ) {
    this.#options = options;
    this.#scenarios = stores.scenarios;
    this.#runs = stores.runs;
    const prepare = (sql: string) => options.registry.context.db.prepare(sql);
    this.#sql = {
      insertAgent: prepare(
        `INSERT INTO scenario_local_agents (id, name, agent_file, host, started_at, registered_at, last_seen_ms, stopped_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
      ),
      agent: prepare(`${AGENT_SELECT} WHERE a.id = ?`),
      agents: prepare(`${AGENT_SELECT} WHERE a.seq > ? ORDER BY a.seq LIMIT ?`),
      liveAgents: prepare(
        `${AGENT_SELECT} WHERE a.stopped_at IS NULL AND a.last_seen_ms > ? ORDER BY leases, a.last_seen_ms DESC, a.seq`,
      ),
      seen: prepare('UPDATE scenario_local_agents SET last_seen_ms = ? WHERE id = ?'),
      stopAgent: prepare('UPDATE scenario_local_agents SET stopped_at = ? WHERE id = ?'),
      insertLaunch: prepare(
        `INSERT INTO scenario_launches (id, run_id, agent_id, state, lease_expires_ms, leases, created_at, completed_at)
         VALUES (?, ?, ?, 'queued', NULL, 0, ?, NULL)`,
      ),
      launch: prepare('SELECT * FROM scenario_launches WHERE id = ?'),
      launchOfRun: prepare('SELECT * FROM scenario_launches WHERE run_id = ?'),
      held: prepare("SELECT * FROM scenario_launches WHERE agent_id = ? AND state = 'leased' ORDER BY seq"),
      renew: prepare(
        "UPDATE scenario_launches SET lease_expires_ms = ? WHERE agent_id = ? AND state = 'leased'",
      ),
      takeable: prepare(
        `SELECT l.* FROM scenario_launches l LEFT JOIN scenario_local_agents a ON a.id = l.agent_id
         WHERE (l.state = 'queued' AND (l.agent_id IS NULL OR l.agent_id = ? OR a.stopped_at IS NOT NULL OR a.last_seen_ms <= ?))
            OR (l.state = 'leased' AND l.lease_expires_ms <= ?)
         ORDER BY (l.agent_id = ?) DESC, l.seq LIMIT 1`,
      ),
      lease: prepare(
        "UPDATE scenario_launches SET state = 'leased', agent_id = ?, lease_expires_ms = ?, leases = leases + 1 WHERE id = ?",
      ),
      release: prepare(
        "UPDATE scenario_launches SET state = 'queued', agent_id = NULL, lease_expires_ms = NULL WHERE id = ?",
      ),
      releaseAll: prepare(
        "UPDATE scenario_launches SET state = 'queued', agent_id = NULL, lease_expires_ms = NULL WHERE agent_id = ? AND state = 'leased'",
      ),
      complete: prepare(
        "UPDATE scenario_launches SET state = 'completed', lease_expires_ms = NULL, completed_at = ? WHERE id = ?",
      ),
    };
  }

  /** Registers a worker; it is live from now. */
  register(input: RegisterAgent): LocalAgent {
    const id = randomUUID();
    const now = this.#options.now();
    const iso = new Date(now).toISOString();
    this.#sql.insertAgent!.run(id, input.name, input.agentFile, input.host, input.startedAt ?? iso, iso, now);
    return this.agent(id);
  }

  /** A worker. @throws 404 when unknown. */
  agent(agentId: string): LocalAgent {
    const row = this.#sql.agent!.get(agentId) as AgentRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No local agent has this ID.');
    return this.#toAgent(row);
  }

  /** A page of workers, oldest first. */
  list(page: PageRequest): Page<LocalAgent> {
    return readPage(this.#sql.agents!, page, (row: AgentRow) => this.#toAgent(row));
  }

  /** The live workers, the least busy first. */
  live(): LocalAgent[] {
    return (this.#sql.liveAgents!.all(this.#liveSince()) as unknown as AgentRow[]).map((row) =>
      this.#toAgent(row),
    );
  }

  /**
   * A worker's poll: its heartbeat; renews its leases, leases it the next launch when it holds
   * none, and answers every launch it holds.
   *
   * @throws 409 `conflict` when the worker stopped (it registers again to serve).
   */
  poll(agentId: string, origin: string): { agent: LocalAgent; leases: Launch[] } {
    const agent = this.agent(agentId);
    if (agent.stoppedAt !== null) {
      throw new ApiError(
        409,
        'conflict',
        'This local agent stopped: register a new one to serve launched runs.',
      );
    }
    const now = this.#options.now();
    const leaseUntil = now + this.#options.liveMillis;
    this.#sql.seen!.run(now, agentId);
    this.#sql.renew!.run(leaseUntil, agentId);
    if ((this.#sql.held!.all(agentId) as unknown[]).length === 0) {
      const next = this.#sql.takeable!.get(agentId, now - this.#options.liveMillis, now, agentId) as
        | LaunchRow
        | undefined;
      if (next !== undefined) this.#sql.lease!.run(agentId, leaseUntil, next.id);
    }
    const leases = (this.#sql.held!.all(agentId) as unknown as LaunchRow[]).map((row) =>
      this.#toLaunch(row, origin),
    );
    return { agent: this.agent(agentId), leases };
  }

  /** Stops a worker: it is not live any more, and what it held goes back to the queue. */
  stop(agentId: string): LocalAgent {
    const agent = this.agent(agentId);
    if (agent.stoppedAt === null) {
      this.#sql.releaseAll!.run(agentId);
      this.#sql.stopAgent!.run(new Date(this.#options.now()).toISOString(), agentId);
    }
    return this.agent(agentId);
  }

  /**
   * Launches a run of a scenario for a live worker.
   *
   * @throws 409 `no_live_worker` when no worker (or not the one asked for) is live: nothing is made.
   */
  launch(input: LaunchRun, origin: string): { launch: Launch; agent: LocalAgent } {
    const versionId =
      input.scenarioVersionId ?? this.#scenarios.getScenario(input.scenarioId ?? '').latestVersionId;
    const version = this.#scenarios.record(versionId);
    if (input.scenarioId !== undefined && input.scenarioVersionId !== undefined) {
      const scenario = this.#scenarios.getScenario(input.scenarioId);
      if (scenario.id !== version.scenarioId) {
        throw new ApiError(422, 'invalid_request', 'scenarioVersionId: is not a version of scenarioId.');
      }
    }
    const agent = this.#pickAgent(input.agentId);
    const run = this.#runs.create({ scenarioVersionId: version.id, name: input.name, trials: input.trials });
    const id = randomUUID();
    this.#sql.insertLaunch!.run(id, run.id, agent.id, new Date(this.#options.now()).toISOString());
    return { launch: this.launchById(id, origin), agent };
  }

  /** A launch. @throws 404 when unknown. */
  launchById(launchId: string, origin: string): Launch {
    const row = this.#sql.launch!.get(launchId) as LaunchRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No launch has this ID.');
    return this.#toLaunch(row, origin);
  }

  /** The launch of a run, or `undefined` (a run made without one). */
  launchOfRun(runId: string, origin: string): Launch | undefined {
    const row = this.#sql.launchOfRun!.get(runId) as LaunchRow | undefined;
    return row === undefined ? undefined : this.#toLaunch(row, origin);
  }

  /** Gives a held launch back to the queue. @throws 409 when `agentId` does not hold it. */
  release(launchId: string, agentId: string, origin: string): Launch {
    this.#held(launchId, agentId, origin);
    this.#sql.release!.run(launchId);
    return this.launchById(launchId, origin);
  }

  /** Completes a held launch (its run is done). @throws 409 when `agentId` does not hold it. */
  complete(launchId: string, agentId: string, origin: string): Launch {
    this.#held(launchId, agentId, origin);
    this.#sql.complete!.run(new Date(this.#options.now()).toISOString(), launchId);
    return this.launchById(launchId, origin);
  }

  #held(launchId: string, agentId: string, origin: string): Launch {
    const launch = this.launchById(launchId, origin);
    if (
      launch.state !== 'leased' ||
      launch.agentId !== agentId ||
      Date.parse(launch.leaseExpiresAt!) <= this.#options.now()
    ) {
      throw new ApiError(
        409,
        'conflict',
        launch.state === 'completed'
          ? 'This launch is completed already.'
          : 'This local agent does not hold this launch (its lease expired, or another worker took it): stop serving its run.',
      );
    }
    return launch;
  }

  #pickAgent(agentId: string | undefined): LocalAgent {
    const live = this.live();
    if (agentId !== undefined) {
      const agent = this.agent(agentId);
      if (!live.some((candidate) => candidate.id === agentId)) {
        throw new ApiError(
          409,
          'no_live_worker',
          `The local agent ${agent.name} is not live (${agent.stoppedAt !== null ? 'it stopped' : `last seen ${agent.lastSeenAt}`}): start a worker with svc eval --worker <agent file> --env-file <file>, or launch without agentId.`,
        );
      }
      return agent;
    }
    const chosen = live[0];
    if (chosen === undefined) {
      throw new ApiError(
        409,
        'no_live_worker',
        `No local agent is live (none polled in the last ${Math.round(this.#options.liveMillis / 1000)} s): start one with svc eval --worker <agent file> --env-file <file>, then launch again.`,
      );
    }
    return chosen;
  }

  #liveSince(): number {
    return this.#options.now() - this.#options.liveMillis;
  }

  #toAgent(row: AgentRow): LocalAgent {
    const lastSeen = Number(row.last_seen_ms);
    return {
      id: row.id,
      name: row.name,
      agentFile: row.agent_file,
      host: row.host,
      startedAt: row.started_at,
      registeredAt: row.registered_at,
      lastSeenAt: new Date(lastSeen).toISOString(),
      live: row.stopped_at === null && lastSeen > this.#liveSince(),
      stoppedAt: row.stopped_at,
      leases: Number(row.leases),
    };
  }

  #toLaunch(row: LaunchRow, origin: string): Launch {
    const run: RunRecord = this.#runs.record(row.run_id);
    const version = this.#scenarios.record(run.scenarioVersionId);
    return {
      id: row.id,
      runId: row.run_id,
      runUrl: runUrl(origin, row.run_id),
      scenarioId: version.scenarioId,
      scenarioVersionId: version.id,
      trials: run.trials,
      state: row.state,
      agentId: row.agent_id,
      leaseExpiresAt:
        row.lease_expires_ms === null ? null : new Date(Number(row.lease_expires_ms)).toISOString(),
      leases: Number(row.leases),
      createdAt: row.created_at,
      completedAt: row.completed_at,
    };
  }
}
