/**
 * The experiment and execution methods of the evaluation client.
 * @module
 */
import type { Page, PageOptions } from '../types/common-types.js';
import type {
  CompleteExecutionInput,
  CreatedExperiment,
  CreateExperimentInput,
  Execution,
  ExecutionCompletion,
  Experiment,
  ExperimentCase,
  ExperimentItem,
  FinishedExperiment,
  StartExecutionInput,
} from '../types/experiment-types.js';
import { idSegment, keyedPost, pageQuery, requireIdempotencyKey } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Experiments and executions. */
export interface ExperimentMethods {
  /** Creates an experiment on a frozen dataset version; returns its ID and its evaluation run. */
  createExperiment(input: CreateExperimentInput): Promise<CreatedExperiment>;
  /** Reads an experiment. */
  getExperiment(id: string): Promise<Experiment>;
  /** A page of the experiment's items: its cases in order, each with its latest execution. */
  listExperimentItems(id: string, page?: PageOptions): Promise<Page<ExperimentItem>>;
  /** The case view: a case, every execution of it and their results. */
  getExperimentCase(id: string, caseId: string): Promise<ExperimentCase>;
  /** Starts an attempt at a case. */
  startExecution(experimentId: string, caseId: string, input: StartExecutionInput): Promise<Execution>;
  /** Reads an execution. */
  getExecution(id: string): Promise<Execution>;
  /** Completes an execution in a terminal state. */
  completeExecution(id: string, input: CompleteExecutionInput): Promise<ExecutionCompletion>;
  /** Finishes an experiment: it then refuses executions and completions. */
  finishExperiment(id: string, idempotencyKey: string): Promise<FinishedExperiment>;
}

const BASE = '/api/v1/evals';

/** The experiment methods on `send`. */
export function experimentMethods(send: EvalTransport): ExperimentMethods {
  return {
    createExperiment: async (input) => send(keyedPost('createExperiment', `${BASE}/experiments`, input)),
    getExperiment: async (id) =>
      send({ operation: 'getExperiment', method: 'GET', path: `${BASE}/experiments/${idSegment('id', id)}` }),
    listExperimentItems: async (id, page) =>
      send({
        operation: 'listExperimentItems',
        method: 'GET',
        path: `${BASE}/experiments/${idSegment('id', id)}/items`,
        query: pageQuery(page),
      }),
    getExperimentCase: async (id, caseId) =>
      send({
        operation: 'getExperimentCase',
        method: 'GET',
        path: `${BASE}/experiments/${idSegment('id', id)}/cases/${idSegment('caseId', caseId)}`,
      }),
    startExecution: async (experimentId, caseId, input) =>
      send(
        keyedPost(
          'startExecution',
          `${BASE}/experiments/${idSegment('experimentId', experimentId)}/cases/${idSegment('caseId', caseId)}/executions`,
          input,
        ),
      ),
    getExecution: async (id) =>
      send({ operation: 'getExecution', method: 'GET', path: `${BASE}/executions/${idSegment('id', id)}` }),
    completeExecution: async (id, input) =>
      send(keyedPost('completeExecution', `${BASE}/executions/${idSegment('id', id)}/complete`, input)),
    finishExperiment: async (id, idempotencyKey) =>
      send({
        operation: 'finishExperiment',
        method: 'POST',
        path: `${BASE}/experiments/${idSegment('id', id)}/finish`,
        body: {},
        idempotencyKey: requireIdempotencyKey('idempotencyKey', idempotencyKey),
      }),
  };
}
