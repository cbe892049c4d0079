/**
 * Managed targets and the executions they run: registered targets, dispatches (an execution
 * started for a target, and the delivery of its request), claims (atomic: an execution is claimed
 * once, so a replayed request never runs the agent again), output files and outcomes. Methods but
 * {@link ManagedStore.finishDispatch} run inside the calling route's transaction.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { EvalContext } from '../core/eval-context.js';
import { fromColumn, toColumn } from '../core/json-columns.js';
import { requireRow } from '../core/require-row.js';
import type { DatasetStore } from '../datasets/dataset-store.js';
import type { Execution, ExperimentStore } from '../experiments/experiment-store.js';
import { AGENT_ROLES } from '../files/case-file-schemas.js';
import type { CaseFiles } from '../files/case-files.js';
import { type DispatchAnswer, dispatchAnswerOf } from './dispatch-answer.js';
import type {
  ClaimAnswerSchema,
  ClaimSchema,
  CreateManagedTargetSchema,
  DispatchRecordSchema,
  DispatchSchema,
  ManagedExecutionSchema,
  ManagedTargetSchema,
  OutcomeAnswerSchema,
  OutcomeSchema,
  OutputFileDeclarationSchema,
  OutputFileSchema,
  UsageSchema,
} from './managed-schemas.js';

export type ManagedTarget = z.output<typeof ManagedTargetSchema>;
export type DispatchRecord = z.output<typeof DispatchRecordSchema>;
export type ClaimAnswer = z.output<typeof ClaimAnswerSchema>;
export type OutputFile = z.output<typeof OutputFileSchema>;
export type OutcomeAnswer = z.output<typeof OutcomeAnswerSchema>;
export type ManagedExecution = z.output<typeof ManagedExecutionSchema>;
type Usage = z.output<typeof UsageSchema>;

/** The `type` of the request body the service sends to a managed target. */
export const MANAGED_REQUEST_TYPE = 'svc.managed.execution';

/** What the service POSTs to a managed target (before signing). */
export interface ManagedRequest {
  url: string;
  body: {
    type: typeof MANAGED_REQUEST_TYPE;
    deliveryId: string;
    executionId: string;
    experimentId: string;
    caseId: string;
  };
}

/** How a delivery ended. */
export type DeliveryResult =
  | { state: 'delivered'; status: number; response: DispatchAnswer | null }
  | { state: 'failed'; failure: string };

interface TargetRow {
  id: string;
  name: string;
  url: string;
  created_at: string;
}

interface DispatchRow {
  id: string;
  target_id: string;
  execution_id: string;
  state: DispatchRecord['state'];
  response_status: number | null;
  response: string | null;
  failure: string | null;
  created_at: string;
  finished_at: string | null;
}

interface ClaimRow {
  execution_id: string;
  claim_id: string;
  claimed_at: string;
  output_files: string | null;
  usage: string | null;
  outcome_saved_at: string | null;
}

function toTarget(row: TargetRow): ManagedTarget {
  return { id: row.id, name: row.name, url: row.url, createdAt: row.created_at };
}

function toDispatch(row: DispatchRow): DispatchRecord {
  return {
    id: row.id,
    targetId: row.target_id,
    executionId: row.execution_id,
    state: row.state,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    // Rows written before dispatches kept only the handler's fields are filtered when read.
    response: row.response === null ? null : dispatchAnswerOf(JSON.parse(row.response) as unknown),
    failure: row.failure,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** The managed side of the execution `dispatch` delivered, with its claim when it has one. */
function toManagedExecution(dispatch: DispatchRow, claim: ClaimRow | undefined): ManagedExecution {
  return {
    executionId: dispatch.execution_id,
    dispatchId: dispatch.id,
    targetId: dispatch.target_id,
    claimedAt: claim?.claimed_at ?? null,
    outcomeSavedAt: claim?.outcome_saved_at ?? null,
    usage: (fromColumn(claim?.usage ?? null) as Usage | undefined) ?? null,
    outputFiles: (fromColumn(claim?.output_files ?? null) as OutputFile[] | undefined) ?? [],
  };
}

function conflict(message: string): ApiError {
  return new ApiError(409, 'conflict', message);
}

/** Targets, dispatches, claims and outcomes of managed executions. */
export class ManagedStore {
  readonly #context: EvalContext;
  readonly #experiments: ExperimentStore;
  readonly #datasets: DatasetStore;
  readonly #caseFiles: CaseFiles;
  readonly #sql: Record<string, StatementSync>;

  constructor(
    context: EvalContext,
    stores: { experiments: ExperimentStore; datasets: DatasetStore; caseFiles: CaseFiles },
  ) {
    this.#context = context;
    this.#experiments = stores.experiments;
    this.#datasets = stores.datasets;
    this.#caseFiles = stores.caseFiles;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertTarget: prepare(
        'INSERT INTO eval_managed_targets (id, name, url, created_at) VALUES (?, ?, ?, ?)',
      ),
      target: prepare('SELECT * FROM eval_managed_targets WHERE id = ?'),
      insertDispatch: prepare(
        `INSERT INTO eval_managed_dispatches (id, target_id, execution_id, state, created_at)
         VALUES (?, ?, ?, 'delivering', ?)`,
      ),
      dispatch: prepare('SELECT * FROM eval_managed_dispatches WHERE id = ?'),
      dispatchOfExecution: prepare('SELECT * FROM eval_managed_dispatches WHERE execution_id = ?'),
      finishDispatch: prepare(
        `UPDATE eval_managed_dispatches SET state = ?, response_status = ?, response = ?, failure = ?, finished_at = ?
         WHERE id = ? AND state = 'delivering'`,
      ),
      claim: prepare('SELECT * FROM eval_managed_claims WHERE execution_id = ?'),
      insertClaim: prepare(
        'INSERT INTO eval_managed_claims (execution_id, claim_id, claimed_at) VALUES (?, ?, ?)',
      ),
      setTrace: prepare(
        'UPDATE eval_executions SET trace_external_id = ? WHERE id = ? AND trace_external_id IS NULL',
      ),
      saveOutcome: prepare(
        'UPDATE eval_managed_claims SET output_files = ?, usage = ?, outcome_saved_at = ? WHERE execution_id = ?',
      ),
    };
  }

  /** Registers a managed target. */
  createTarget(input: z.output<typeof CreateManagedTargetSchema>): ManagedTarget {
    const id = randomUUID();
    this.#sql.insertTarget!.run(id, input.name, input.url, this.#context.now());
    return this.getTarget(id);
  }

  /** A managed target. @throws 404 when unknown. */
  getTarget(id: string, field = 'targetId'): ManagedTarget {
    return requireRow(this.#sql.target!, id, `${field}: no managed target has this ID.`, toTarget);
  }

  /**
   * Starts an execution of a case for a target (the rules of starting an execution apply) and
   * records its dispatch, in state `delivering`: the caller delivers it once committed.
   */
  dispatch(
    experimentId: string,
    caseId: string,
    input: z.output<typeof DispatchSchema>,
  ): { dispatch: DispatchRecord; execution: Execution } {
    const { targetId, ...replacement } = input;
    this.getTarget(targetId);
    const execution = this.#experiments.start(experimentId, caseId, replacement);
    const id = randomUUID();
    this.#sql.insertDispatch!.run(id, targetId, execution.id, this.#context.now());
    return { dispatch: this.getDispatch(id), execution };
  }

  /** A dispatch. @throws 404 when unknown. */
  getDispatch(id: string): DispatchRecord {
    return requireRow(this.#sql.dispatch!, id, 'No dispatch has this ID.', toDispatch);
  }

  /** The request a dispatch delivers: the target's URL and the body to sign. */
  requestOf(dispatchId: string): ManagedRequest {
    const dispatch = this.getDispatch(dispatchId);
    const execution = this.#experiments.getExecution(dispatch.executionId);
    return {
      url: this.getTarget(dispatch.targetId).url,
      body: {
        type: MANAGED_REQUEST_TYPE,
        deliveryId: dispatch.id,
        executionId: execution.id,
        experimentId: execution.experimentId,
        caseId: execution.caseId,
      },
    };
  }

  /** Records how a delivery ended (its own statement: called outside a route's transaction). */
  finishDispatch(id: string, result: DeliveryResult): void {
    this.#sql.finishDispatch!.run(
      result.state,
      result.state === 'delivered' ? result.status : null,
      result.state === 'delivered' ? toColumn(result.response ?? undefined) : null,
      result.state === 'failed' ? result.failure : null,
      this.#context.now(),
      id,
    );
  }

  /**
   * Claims a dispatched execution for its target: once only. Refused (409) when the execution is
   * claimed already (`already_claimed`), completed, replaced, its experiment finished, or it was
   * not dispatched to a managed target. Answers with what the target runs, and signed download
   * links of the case files the agent sees.
   */
  claim(executionId: string, input: z.output<typeof ClaimSchema>, origin: string): ClaimAnswer {
    const execution = this.#experiments.getExecution(executionId);
    if (this.#sql.dispatchOfExecution!.get(executionId) === undefined) {
      throw conflict(
        'This execution was not dispatched to a managed target: only dispatched executions are claimed.',
      );
    }
    if (this.#sql.claim!.get(executionId) !== undefined) {
      throw new ApiError(
        409,
        'already_claimed',
        'This execution is claimed already: it runs once, and is never run again by a repeated request.',
      );
    }
    if (execution.replacedByExecutionId !== null) {
      throw conflict('This execution was replaced by a later attempt: it is not run.');
    }
    if (execution.state !== 'started') throw conflict('This execution is completed: it is not run again.');
    const experiment = this.#experiments.get(execution.experimentId);
    if (experiment.finishedAt !== null)
      throw conflict('The experiment is finished: it runs no more executions.');
    const claimId = randomUUID();
    this.#sql.insertClaim!.run(executionId, claimId, this.#context.now());
    if (input.traceId !== undefined) this.#sql.setTrace!.run(input.traceId, executionId);
    const item = this.#datasets.findCase(execution.caseId)!;
    const files = item.files
      .filter((file) => AGENT_ROLES.has(file.role))
      .map((file) => {
        const link = this.#caseFiles.link(item.id, item.files, file.sha256, origin);
        return { ...link, role: file.role, name: file.name };
      });
    return {
      claimId,
      executionId,
      experimentId: execution.experimentId,
      caseId: execution.caseId,
      attempt: execution.attempt,
      traceId: this.#experiments.getExecution(executionId).traceExternalId,
      inputs: item.inputs,
      config: experiment.config,
      files,
    };
  }

  /** The claim of an execution, checked: it must be `claimId` and have no outcome yet. */
  #openClaim(executionId: string, claimId: string): ClaimRow {
    this.#experiments.getExecution(executionId);
    const claim = this.#sql.claim!.get(executionId) as ClaimRow | undefined;
    if (claim === undefined)
      throw conflict('This execution is not claimed: claim it before saving its outcome.');
    if (claim.claim_id !== claimId) throw conflict('claimId is not the claim of this execution.');
    if (claim.outcome_saved_at !== null) {
      throw conflict(
        "This execution's outcome is saved already; a retry of the same request needs the same idempotency key.",
      );
    }
    return claim;
  }

  /** Declares an output file of a claimed execution: an artifact, with its upload link unless held. */
  declareOutputFile(
    executionId: string,
    input: z.output<typeof OutputFileDeclarationSchema>,
    held: boolean,
    origin: string,
  ) {
    this.#openClaim(executionId, input.claimId);
    const { claimId: _claimId, ...artifact } = input;
    return this.#caseFiles.createArtifact(artifact, held, origin);
  }

  /**
   * Saves the outcome of a claimed execution: completes it in its terminal state (the execution's
   * subject and run item are created as for any completion) and keeps its output files (stored
   * artifacts) and usage.
   */
  saveOutcome(executionId: string, input: z.output<typeof OutcomeSchema>): OutcomeAnswer {
    this.#openClaim(executionId, input.claimId);
    const outputFiles: OutputFile[] = (input.files ?? []).map((file, index) => {
      let artifact: ReturnType<CaseFiles['getArtifact']>;
      try {
        artifact = this.#caseFiles.getArtifact(file.artifactId);
      } catch {
        throw new ApiError(404, 'not_found', `files.${index}.artifactId: no artifact has this ID.`);
      }
      if (artifact.state !== 'stored') {
        throw conflict(
          `files.${index}.artifactId: the artifact's bytes are not uploaded yet; PUT them first.`,
        );
      }
      return {
        name: artifact.name,
        contentType: artifact.contentType,
        sha256: artifact.sha256,
        size: artifact.size,
        artifactId: artifact.id,
      };
    });
    const completion = this.#experiments.complete(executionId, {
      state: input.state,
      ...(input.output === undefined ? {} : { output: input.output }),
      ...(input.error === undefined ? {} : { error: input.error }),
    });
    this.#sql.saveOutcome!.run(
      JSON.stringify(outputFiles),
      toColumn(input.usage),
      this.#context.now(),
      executionId,
    );
    return { ...completion, outputFiles };
  }

  /** The managed side of an execution: dispatch, claim, usage and output files. @throws 404. */
  managedExecution(executionId: string): ManagedExecution {
    this.#experiments.getExecution(executionId);
    const claim = this.#sql.claim!.get(executionId) as ClaimRow | undefined;
    return requireRow(
      this.#sql.dispatchOfExecution!,
      executionId,
      'This execution was not dispatched to a managed target.',
      (dispatch: DispatchRow) => toManagedExecution(dispatch, claim),
    );
  }
}
