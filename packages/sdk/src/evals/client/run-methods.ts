/**
 * The run and result methods of the evaluation client.
 * @module
 */
import type { Page, PageOptions } from '../types/common-types.js';
import type {
  CreateEvaluationRunInput,
  EvaluationItem,
  EvaluationResult,
  EvaluationRun,
  Subject,
  SubmitResultsInput,
  SubmittedResults,
} from '../types/run-types.js';
import { idSegment, keyedPost, pageQuery } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Evaluation runs, items, subjects and results. */
export interface RunMethods {
  /** Creates a run over saved subjects (an item per subject); returns its ID. */
  createEvaluationRun(input: CreateEvaluationRunInput): Promise<{ id: string }>;
  /** Reads a run. */
  getEvaluationRun(id: string): Promise<EvaluationRun>;
  /** A page of the items of a run, in the order they were added. */
  listEvaluationItems(id: string, page?: PageOptions): Promise<Page<EvaluationItem>>;
  /** Reads a subject: what a completed execution produced, with its case. */
  getSubject(subjectId: string): Promise<Subject>;
  /**
   * Submits results, all or nothing. Each Score is checked against the pinned scorer version's
   * metric definitions exactly; a pair (item, scorer version) gets at most one result.
   */
  submitResults(runId: string, input: SubmitResultsInput): Promise<SubmittedResults>;
  /** A page of the results of a run, in submission order. */
  listResults(runId: string, page?: PageOptions): Promise<Page<EvaluationResult>>;
  /** Reads a result. */
  getResult(resultId: string): Promise<EvaluationResult>;
}

const BASE = '/api/v1/evals';

/** The run methods on `send`. */
export function runMethods(send: EvalTransport): RunMethods {
  return {
    createEvaluationRun: async (input) => send(keyedPost('createEvaluationRun', `${BASE}/runs`, input)),
    getEvaluationRun: async (id) =>
      send({ operation: 'getEvaluationRun', method: 'GET', path: `${BASE}/runs/${idSegment('id', id)}` }),
    listEvaluationItems: async (id, page) =>
      send({
        operation: 'listEvaluationItems',
        method: 'GET',
        path: `${BASE}/runs/${idSegment('id', id)}/items`,
        query: pageQuery(page),
      }),
    getSubject: async (subjectId) =>
      send({
        operation: 'getSubject',
        method: 'GET',
        path: `${BASE}/subjects/${idSegment('subjectId', subjectId)}`,
      }),
    submitResults: async (runId, input) =>
      send(keyedPost('submitResults', `${BASE}/runs/${idSegment('runId', runId)}/results`, input)),
    listResults: async (runId, page) =>
      send({
        operation: 'listResults',
        method: 'GET',
        path: `${BASE}/runs/${idSegment('runId', runId)}/results`,
        query: pageQuery(page),
      }),
    getResult: async (resultId) =>
      send({
        operation: 'getResult',
        method: 'GET',
        path: `${BASE}/results/${idSegment('resultId', resultId)}`,
      }),
  };
}
