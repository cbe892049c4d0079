/**
 * Trials: one agent attempt at one case of a scenario run, each with its own world instance and
 * token. Starting a trial opens its world (the case's starting state); sealing it records the
 * outcome (the final output or error, the final state, the tool calls in order) under a SHA-256
 * seal, closes the world, kills the token, completes the case's execution in the registry and
 * grades it against the sealed checks. A sealed outcome is never sealed again. Methods run inside
 * the calling route's transaction.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { canonicalJson } from '../../evals/core/canonical-json.js';
import { fromColumn, toColumn } from '../../evals/core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../../evals/core/paging.js';
import { ApiError } from '../../http/api-error.js';
import type { Check } from '../document/scenario-document-schema.js';
import { type DeterministicCheck, passesCheck, type SealedCall } from '../grading/deterministic-checks.js';
import { trialOutcome } from '../grading/trial-outcome.js';
import type { ResolvedScenarioOptions } from '../scenario-options.js';
import { TrialTokens } from '../trial-token.js';
import type { JsonValue } from '../world/json-pointer.js';
import { currentChecks } from './check-status.js';
import type { ScenarioRunStore } from './run-store.js';
import type { ScenarioStore } from './scenario-store.js';
import {
  type StoredCheck,
  type ToolCall,
  type ToolCallRow,
  type Trial,
  type TrialRow,
  toToolCall,
} from './trial-rows.js';
import type { VersionRecord } from './version-record.js';

/** What starts a trial. */
export interface StartTrial {
  caseKey: string;
  trial: number;
  /** The OpenTelemetry trace of the agent's work on the trial (the execution links to it). */
  traceId?: string | undefined;
}

/** What seals a trial: the agent's final output, or the error it ended with. */
export interface SealTrial {
  output?: unknown;
  error?: { type: string; message?: string | undefined } | undefined;
}

/** A trial and the run and version it belongs to. */
export interface TrialContext {
  row: TrialRow;
  runId: string;
  experimentId: string;
  evaluationRunId: string;
  version: VersionRecord;
}

/** Trials. */
export class TrialStore {
  readonly #options: ResolvedScenarioOptions;
  readonly #scenarios: ScenarioStore;
  readonly #runs: ScenarioRunStore;
  readonly #tokens: TrialTokens;
  readonly #sql: Record<string, StatementSync>;

  constructor(
    options: ResolvedScenarioOptions,
    stores: { scenarios: ScenarioStore; runs: ScenarioRunStore },
  ) {
    this.#options = options;
    this.#scenarios = stores.scenarios;
    this.#runs = stores.runs;
    this.#tokens = new TrialTokens(options.tokenSecret);
    const prepare = (sql: string) => options.registry.context.db.prepare(sql);
    this.#sql = {
      insert: prepare(
        `INSERT INTO scenario_trials (id, run_id, case_key, trial, world_id, token_hash, state, world_state, call_count,
           trace_id, opened_at, expires_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, 'open', ?, 0, ?, ?, ?)`,
      ),
      byId: prepare('SELECT * FROM scenario_trials WHERE id = ?'),
      byKey: prepare('SELECT * FROM scenario_trials WHERE run_id = ? AND case_key = ? AND trial = ?'),
      byToken: prepare('SELECT * FROM scenario_trials WHERE token_hash = ?'),
      ofRun: prepare('SELECT * FROM scenario_trials WHERE run_id = ? ORDER BY seq'),
      sealedCount: prepare("SELECT COUNT(*) AS n FROM scenario_trials WHERE run_id = ? AND state = 'sealed'"),
      calls: prepare('SELECT * FROM scenario_tool_calls WHERE trial_id = ? ORDER BY seq'),
      callPage: prepare(
        'SELECT * FROM scenario_tool_calls WHERE trial_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      seal: prepare(
        `UPDATE scenario_trials SET state = 'sealed', execution_state = ?, output = ?, error = ?, seal = ?, sealed_at = ?,
           execution_id = ?, evaluation_item_id = ?, grading = ? WHERE id = ? AND state = 'open'`,
      ),
    };
  }

  /** The token of a trial (derived, never stored). */
  tokenOf(trialId: string): string {
    return this.#tokens.tokenOf(trialId);
  }

  /** Opens the world of one trial of a run. @throws 404 for an unknown run or case, 409 for a trial started already. */
  start(runId: string, input: StartTrial): Trial {
    const run = this.#runs.record(runId);
    const version = this.#scenarios.record(run.scenarioVersionId);
    const start = version.world.caseStates[input.caseKey];
    if (start === undefined) {
      throw new ApiError(404, 'not_found', `caseKey: the scenario version has no case "${input.caseKey}".`);
    }
    if (input.trial > run.trials) {
      throw new ApiError(422, 'invalid_request', `trial: must be from 1 to ${run.trials}, the run's trials.`);
    }
    if (this.#sql.byKey!.get(runId, input.caseKey, input.trial) !== undefined) {
      throw new ApiError(
        409,
        'conflict',
        'This trial was started already and its agent may have run: read it (the run lists it), seal it with an error if it will not finish, and never run its agent again. A retry of the same start needs the same idempotency key.',
      );
    }
    const id = randomUUID();
    const now = this.#options.now();
    this.#sql.insert!.run(
      id,
      runId,
      input.caseKey,
      input.trial,
      randomUUID(),
      TrialTokens.hashOf(this.#tokens.tokenOf(id)),
      JSON.stringify(start),
      input.traceId ?? null,
      new Date(now).toISOString(),
      now + this.#options.trialTtlMillis,
    );
    return this.get(id);
  }

  /** A trial. @throws 404 when unknown. */
  get(trialId: string): Trial {
    return this.view(this.#row(trialId));
  }

  /** A trial with its run and version (internal). */
  context(trialId: string): TrialContext {
    return this.#contextOf(this.#row(trialId));
  }

  /** The trial a token belongs to, whatever its state, or `undefined` (internal: world access). */
  findByToken(token: string): TrialContext | undefined {
    const row = this.#sql.byToken!.get(TrialTokens.hashOf(token)) as TrialRow | undefined;
    return row === undefined ? undefined : this.#contextOf(row);
  }

  /** Whether the world of `row` takes calls now. */
  isOpen(row: TrialRow): boolean {
    return row.state === 'open' && this.#options.now() < Number(row.expires_at_ms);
  }

  /** The trials of a run, in the order they started. */
  ofRun(runId: string): TrialRow[] {
    return this.#sql.ofRun!.all(runId) as unknown as TrialRow[];
  }

  /** A page of a trial's tool calls, in call order. */
  toolCalls(trialId: string, page: PageRequest): Page<ToolCall> {
    this.#row(trialId);
    return readPage(this.#sql.callPage!, page, toToolCall, trialId);
  }

  /**
   * Seals a trial: the outcome, the world's final state and the tool calls in order, under a
   * SHA-256 seal; completes the case's execution and grades it.
   *
   * @param wake - Called once the transaction commits when judge jobs were queued.
   * @throws 409 `already_sealed` when the trial is sealed (a retry of the same seal needs the same idempotency key).
   */
  seal(trialId: string, input: SealTrial, wake: () => void): Trial {
    const context = this.context(trialId);
    const { row, version } = context;
    if (row.state === 'sealed') {
      throw new ApiError(
        409,
        'already_sealed',
        'This trial is sealed already: a sealed outcome is never sealed twice. A retry of the same seal needs the same idempotency key.',
      );
    }
    const { registry } = this.#options;
    const calls = (this.#sql.calls!.all(trialId) as unknown as ToolCallRow[]).map(toToolCall);
    const finalState = JSON.parse(row.world_state) as JsonValue;
    const executionState = input.error === undefined ? 'succeeded' : 'error';
    const sealedAt = new Date(this.#options.now()).toISOString();
    const seal = createHash('sha256')
      .update(
        canonicalJson({
          trialId,
          runId: context.runId,
          scenarioVersionId: version.id,
          caseKey: row.case_key,
          trial: Number(row.trial),
          executionState,
          output: input.output,
          error: input.error,
          finalState,
          toolCalls: calls.map(({ seq, tool, arguments: args, result }) => ({
            seq,
            tool,
            arguments: args,
            result,
          })),
        }),
        'utf8',
      )
      .digest('hex');
    const caseId = version.registry.caseIds[row.case_key]!;
    const previous = registry.experiments.caseView(context.experimentId, caseId).executions.at(-1);
    const execution = registry.experiments.start(context.experimentId, caseId, {
      ...(row.trace_id === null ? {} : { traceExternalId: row.trace_id }),
      ...(previous === undefined ? {} : { previousExecutionId: previous.id }),
    });
    const completion = registry.experiments.complete(execution.id, {
      state: executionState,
      ...(input.output === undefined ? {} : { output: input.output }),
      ...(input.error === undefined ? {} : { error: input.error }),
    } as Parameters<typeof registry.experiments.complete>[1]);
    const checks = this.#grade(
      context,
      completion.evaluationItemId,
      executionState,
      {
        finalState,
        output: input.output,
        toolCalls: calls.map(
          (call): SealedCall => ({
            tool: call.tool,
            arguments: call.arguments,
            isError: call.result.isError,
          }),
        ),
      },
      wake,
    );
    this.#sql.seal!.run(
      executionState,
      toColumn(input.output),
      toColumn(input.error),
      seal,
      sealedAt,
      execution.id,
      completion.evaluationItemId,
      JSON.stringify(checks),
      trialId,
    );
    this.#runs.finishWhenSealed(
      context.runId,
      Number((this.#sql.sealedCount!.get(context.runId) as { n: number }).n),
    );
    return this.get(trialId);
  }

  /** How the API shows a trial row. */
  view(row: TrialRow): Trial {
    const context = this.#contextOf(row);
    const sealed = row.state === 'sealed';
    const checks = sealed
      ? currentChecks(
          this.#options.registry,
          JSON.parse(row.grading ?? '[]') as StoredCheck[],
          row.evaluation_item_id,
        )
      : [];
    const trial: Trial = {
      id: row.id,
      runId: row.run_id,
      scenarioVersionId: context.version.id,
      caseKey: row.case_key,
      caseId: context.version.registry.caseIds[row.case_key]!,
      trial: Number(row.trial),
      worldId: row.world_id,
      state: row.state,
      closed: !this.isOpen(row),
      traceId: row.trace_id,
      openedAt: row.opened_at,
      expiresAt: new Date(Number(row.expires_at_ms)).toISOString(),
      toolCallCount: Number(row.call_count),
      sealedAt: row.sealed_at,
      seal: row.seal,
      executionState: row.execution_state,
      outcome: sealed ? trialOutcome(row.execution_state ?? 'error', checks) : null,
      checks,
      failedChecks: checks.filter((check) => check.status === 'failed').map((check) => check.name),
      executionId: row.execution_id,
      evaluationItemId: row.evaluation_item_id,
    };
    if (sealed) {
      const output = fromColumn(row.output);
      if (output !== undefined) trial.output = output;
      const error = fromColumn(row.error) as Trial['error'];
      if (error !== undefined) trial.error = error;
      trial.finalState = JSON.parse(row.world_state) as JsonValue;
    }
    return trial;
  }

  #row(trialId: string): TrialRow {
    const row = this.#sql.byId!.get(trialId) as TrialRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No trial has this ID.');
    return row;
  }

  #contextOf(row: TrialRow): TrialContext {
    const run = this.#runs.record(row.run_id);
    return {
      row,
      runId: run.id,
      experimentId: run.experimentId,
      evaluationRunId: run.evaluationRunId,
      version: this.#scenarios.record(run.scenarioVersionId),
    };
  }

  /** Grades the sealed outcome: deterministic checks now (one result), hosted judges as jobs. */
  #grade(
    context: TrialContext,
    itemId: string,
    executionState: 'succeeded' | 'error',
    outcome: { finalState: JsonValue; output: unknown; toolCalls: SealedCall[] },
    wake: () => void,
  ): StoredCheck[] {
    const { registry } = this.#options;
    const { version, row } = context;
    const caseChecks: Check[] = version.grading.checks[row.case_key] ?? [];
    const checksVersion = version.registry.checkVersions[row.case_key];
    const judges = version.registry.judgeVersions[row.case_key] ?? {};
    if (executionState === 'error') {
      if (checksVersion !== undefined) {
        registry.results.store(context.evaluationRunId, {
          itemId,
          scorerVersionId: checksVersion,
          score: { status: 'skipped', explanation: 'The agent ended in error: no check was graded.' },
          sourceDigest: null,
          judgeJobId: null,
        });
      }
      return [];
    }
    const results: StoredCheck[] = [];
    const deterministic: StoredCheck[] = [];
    for (const check of caseChecks) {
      const required = check.required !== false;
      if (check.kind === 'llm_judge') {
        results.push({
          name: check.name,
          kind: 'llm_judge',
          required,
          status: 'pending',
          judgeVersionId: judges[check.name]!,
        });
        continue;
      }
      const passed = passesCheck(check as DeterministicCheck, outcome);
      const result: StoredCheck = {
        name: check.name,
        kind: check.kind,
        required,
        status: passed ? 'passed' : 'failed',
      };
      results.push(result);
      deterministic.push(result);
    }
    if (checksVersion !== undefined) {
      const failed = deterministic.filter((check) => check.status === 'failed').map((check) => check.name);
      registry.results.store(context.evaluationRunId, {
        itemId,
        scorerVersionId: checksVersion,
        score: {
          status: 'scored',
          metrics: deterministic.map((check) => ({
            name: check.name,
            value: check.status === 'passed',
            passed: check.status === 'passed',
          })),
          explanation:
            failed.length === 0
              ? `All ${deterministic.length} checks passed.`
              : `${failed.length} of ${deterministic.length} checks failed: ${failed.join(', ')}.`,
        },
        sourceDigest: null,
        judgeJobId: null,
      });
    }
    const pending = results.filter((check) => check.judgeVersionId !== undefined);
    if (pending.length > 0) {
      try {
        registry.judgeJobs.create(context.evaluationRunId, {
          jobs: pending.map((check) => ({
            evaluationItemId: itemId,
            scorerVersionId: check.judgeVersionId!,
          })),
        });
        wake();
      } catch (error) {
        // No job was made (the budget is spent): the judges' checks cannot be graded.
        if (!(error instanceof ApiError)) throw error;
        for (const check of pending) check.status = 'error';
      }
    }
    return results;
  }
}
