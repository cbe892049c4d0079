/**
 * Scenario runs: `trials` trials of every case of one scenario version. A run is an experiment of
 * the registry (on the version's frozen dataset version, pinning its check and judge scorer
 * versions), so the registry, the viewer and MCP `get_experiment` show it like any experiment:
 * each sealed trial is an execution of its case, with its results. The run's summary adds what a
 * scenario needs: each case's trials, their outcomes and failed checks by name, and pass^k.
 * Methods run inside the calling route's transaction.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { type Page, type PageRequest, readPage } from '../../evals/core/paging.js';
import type { EvalRegistry } from '../../evals/eval-registry.js';
import { ApiError } from '../../http/api-error.js';
import { passHatK, type TrialOutcome } from '../grading/trial-outcome.js';
import { runUrl } from '../scenario-links.js';
import type { ScenarioStore } from './scenario-store.js';
import type { Trial } from './trial-rows.js';

/** Most trials of each case in one run. */
export const MAX_RUN_TRIALS = 100;

/** What creates a run. */
export interface CreateRun {
  scenarioVersionId: string;
  name?: string | undefined;
  /** Trials of each case (k of pass^k); default 1. */
  trials?: number | undefined;
}

/** A run's row as kept. */
export interface RunRecord {
  id: string;
  scenarioVersionId: string;
  experimentId: string;
  evaluationRunId: string;
  name: string;
  trials: number;
  createdAt: string;
}

/** One trial slot of a case in a run's summary. */
export interface TrialSlot {
  trial: number;
  trialId: string | null;
  state: 'not_started' | 'open' | 'sealed';
  outcome: TrialOutcome | null;
  failedChecks: string[];
  traceId: string | null;
}

/** One case in a run's summary. */
export interface CaseSummary {
  caseKey: string;
  caseId: string;
  name?: string;
  trials: TrialSlot[];
  /** Sealed trials whose outcome is final (not pending). */
  graded: number;
  passed: number;
  /** pass^k for k = the run's trials; null until every trial is graded. */
  passHatK: number | null;
  /** PASS when every trial passed, FAIL when one failed, ERROR when one errored (and none failed), else null (not finished). */
  verdict: 'PASS' | 'FAIL' | 'ERROR' | null;
}

/** A run as the API shows it. */
export interface ScenarioRun {
  id: string;
  name: string;
  scenarioId: string;
  scenarioVersionId: string;
  experimentId: string;
  evaluationRunId: string;
  trials: number;
  createdAt: string;
  runUrl: string;
  cases: CaseSummary[];
  totals: {
    cases: number;
    trials: number;
    sealed: number;
    passed: number;
    failed: number;
    errored: number;
    pending: number;
  };
  /** Mean pass^k over the cases; null until every case has one. */
  passHatK: number | null;
  /** True when every trial is sealed and graded (nothing pending). */
  complete: boolean;
}

interface RunRow {
  seq: number;
  id: string;
  scenario_version_id: string;
  experiment_id: string;
  name: string;
  trials: number;
  created_at: string;
  evaluation_run_id: string;
}

const RUN_SELECT =
  'SELECT r.*, x.evaluation_run_id FROM scenario_runs r JOIN eval_experiments x ON x.id = r.experiment_id';

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    scenarioVersionId: row.scenario_version_id,
    experimentId: row.experiment_id,
    evaluationRunId: row.evaluation_run_id,
    name: row.name,
    trials: Number(row.trials),
    createdAt: row.created_at,
  };
}

/** Scenario runs. */
export class ScenarioRunStore {
  readonly #registry: EvalRegistry;
  readonly #scenarios: ScenarioStore;
  readonly #sql: Record<string, StatementSync>;

  constructor(registry: EvalRegistry, scenarios: ScenarioStore) {
    this.#registry = registry;
    this.#scenarios = scenarios;
    const prepare = (sql: string) => registry.context.db.prepare(sql);
    this.#sql = {
      insert: prepare(
        'INSERT INTO scenario_runs (id, scenario_version_id, experiment_id, name, trials, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      run: prepare(`${RUN_SELECT} WHERE r.id = ?`),
      ofScenario: prepare(
        `${RUN_SELECT} JOIN scenario_versions v ON v.id = r.scenario_version_id WHERE v.scenario_id = ? AND r.seq > ? ORDER BY r.seq LIMIT ?`,
      ),
    };
  }

  /** Creates a run of a version: its experiment, pinning the version's check and judge scorer versions. */
  create(input: CreateRun): RunRecord {
    const version = this.#scenarios.record(input.scenarioVersionId);
    const trials = input.trials ?? 1;
    const name = input.name ?? `${version.name} v${version.number}`;
    const pinned = new Set([
      ...Object.values(version.registry.checkVersions),
      ...Object.values(version.registry.judgeVersions).flatMap((byName) => Object.values(byName)),
    ]);
    const experiment = this.#registry.experiments.create({
      name,
      datasetVersionId: version.registry.datasetVersionId,
      scorerVersionIds: [...pinned],
      config: { scenario: { slug: version.slug, versionId: version.id, number: version.number }, trials },
    });
    const id = randomUUID();
    this.#sql.insert!.run(id, version.id, experiment.id, name, trials, this.#registry.context.now());
    return this.record(id);
  }

  /** A run's record. @throws 404 when unknown. */
  record(runId: string): RunRecord {
    const row = this.#sql.run!.get(runId) as RunRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No scenario run has this ID.');
    return toRecord(row);
  }

  /** A page of the runs of a scenario (by ID or slug), oldest first. */
  listOfScenario(scenarioIdOrSlug: string, page: PageRequest): Page<RunRecord> {
    const scenario = this.#scenarios.getScenario(scenarioIdOrSlug);
    return readPage(this.#sql.ofScenario!, page, toRecord, scenario.id);
  }

  /** Finishes the run's experiment once every trial is sealed (`sealed` of them are). */
  finishWhenSealed(runId: string, sealed: number): void {
    const run = this.record(runId);
    const version = this.#scenarios.record(run.scenarioVersionId);
    if (sealed === version.publicPart.cases.length * run.trials)
      this.#registry.experiments.finish(run.experimentId);
  }

  /** The summary of a run, from its trials as they stand (`trials` as the API shows them). */
  summary(run: RunRecord, trials: readonly Trial[], origin: string): ScenarioRun {
    const version = this.#scenarios.record(run.scenarioVersionId);
    const totals = {
      cases: version.publicPart.cases.length,
      trials: 0,
      sealed: 0,
      passed: 0,
      failed: 0,
      errored: 0,
      pending: 0,
    };
    const cases = version.publicPart.cases.map((item): CaseSummary => {
      const slots: TrialSlot[] = [];
      for (let index = 1; index <= run.trials; index++) {
        const trial = trials.find((candidate) => candidate.caseKey === item.key && candidate.trial === index);
        slots.push({
          trial: index,
          trialId: trial?.id ?? null,
          state: trial?.state ?? 'not_started',
          outcome: trial?.outcome ?? null,
          failedChecks: trial?.failedChecks ?? [],
          traceId: trial?.traceId ?? null,
        });
      }
      const outcomes = slots.map((slot) => slot.outcome);
      const graded = outcomes.filter((outcome) => outcome !== null && outcome !== 'pending').length;
      const passed = outcomes.filter((outcome) => outcome === 'passed').length;
      totals.trials += run.trials;
      totals.sealed += slots.filter((slot) => slot.state === 'sealed').length;
      totals.passed += passed;
      totals.failed += outcomes.filter((outcome) => outcome === 'failed').length;
      totals.errored += outcomes.filter((outcome) => outcome === 'errored').length;
      totals.pending += outcomes.filter((outcome) => outcome === 'pending').length;
      const verdict = outcomes.includes('failed')
        ? 'FAIL'
        : graded < run.trials
          ? null
          : outcomes.includes('errored')
            ? 'ERROR'
            : 'PASS';
      return {
        caseKey: item.key,
        caseId: version.registry.caseIds[item.key]!,
        ...(item.name === undefined ? {} : { name: item.name }),
        trials: slots,
        graded,
        passed,
        passHatK: passHatK(passed, graded, run.trials),
        verdict,
      };
    });
    const perCase = cases.map((item) => item.passHatK);
    return {
      id: run.id,
      name: run.name,
      scenarioId: version.scenarioId,
      scenarioVersionId: version.id,
      experimentId: run.experimentId,
      evaluationRunId: run.evaluationRunId,
      trials: run.trials,
      createdAt: run.createdAt,
      runUrl: runUrl(origin, run.id),
      cases,
      totals,
      passHatK: perCase.includes(null)
        ? null
        : perCase.reduce<number>((sum, value) => sum + value!, 0) / perCase.length,
      complete: totals.sealed === totals.trials && totals.pending === 0,
    };
  }
}
