/**
 * The dataset methods of the evaluation client.
 * @module
 */
import type { Identity, Page, PageOptions, RequestOptions } from '../types/common-types.js';
import type {
  CaseWrite,
  CaseWriteResult,
  CreateDatasetVersionInput,
  Dataset,
  DatasetCase,
  DatasetVersion,
} from '../types/dataset-types.js';
import { idSegment, optionalIdempotencyKey, pageQuery, requireObject } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Datasets, versions and cases. */
export interface DatasetMethods {
  /** Creates a dataset. A taken slug is refused (409 `conflict`). */
  createDataset(identity: Identity, options?: RequestOptions): Promise<Dataset>;
  /** Reads a dataset. */
  getDataset(id: string): Promise<Dataset>;
  /** A page of datasets, oldest first. */
  listDatasets(page?: PageOptions): Promise<Page<Dataset>>;
  /** Creates the next version of a dataset, empty or copying the cases of `fromVersionId`. */
  createDatasetVersion(
    datasetId: string,
    input?: CreateDatasetVersionInput,
    options?: RequestOptions,
  ): Promise<DatasetVersion>;
  /** Reads a dataset version. */
  getDatasetVersion(versionId: string): Promise<DatasetVersion>;
  /** A page of the cases of a version, in the order they were first written. */
  listCases(versionId: string, page?: PageOptions): Promise<Page<DatasetCase>>;
  /** Writes a case (adds it, or replaces the case of the same `externalKey`). */
  addCase(versionId: string, write: CaseWrite, options?: RequestOptions): Promise<CaseWriteResult>;
  /** Freezes a version: it refuses writes from then on. */
  freezeDatasetVersion(
    versionId: string,
    expectedRevision: number,
    options?: RequestOptions,
  ): Promise<DatasetVersion>;
}

const BASE = '/api/v1/evals';

/** The dataset methods on `send`. */
export function datasetMethods(send: EvalTransport): DatasetMethods {
  return {
    createDataset: async (identity, options) =>
      send({
        operation: 'createDataset',
        method: 'POST',
        path: `${BASE}/datasets`,
        body: requireObject('identity', identity),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    getDataset: async (id) =>
      send({ operation: 'getDataset', method: 'GET', path: `${BASE}/datasets/${idSegment('id', id)}` }),
    listDatasets: async (page) =>
      send({ operation: 'listDatasets', method: 'GET', path: `${BASE}/datasets`, query: pageQuery(page) }),
    createDatasetVersion: async (datasetId, input = {}, options) =>
      send({
        operation: 'createDatasetVersion',
        method: 'POST',
        path: `${BASE}/datasets/${idSegment('datasetId', datasetId)}/versions`,
        body: requireObject('input', input),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    getDatasetVersion: async (versionId) =>
      send({
        operation: 'getDatasetVersion',
        method: 'GET',
        path: `${BASE}/dataset-versions/${idSegment('versionId', versionId)}`,
      }),
    listCases: async (versionId, page) =>
      send({
        operation: 'listCases',
        method: 'GET',
        path: `${BASE}/dataset-versions/${idSegment('versionId', versionId)}/cases`,
        query: pageQuery(page),
      }),
    addCase: async (versionId, write, options) =>
      send({
        operation: 'addCase',
        method: 'POST',
        path: `${BASE}/dataset-versions/${idSegment('versionId', versionId)}/cases`,
        body: requireObject('write', write),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    freezeDatasetVersion: async (versionId, expectedRevision, options) =>
      send({
        operation: 'freezeDatasetVersion',
        method: 'POST',
        path: `${BASE}/dataset-versions/${idSegment('versionId', versionId)}/freeze`,
        body: { expectedRevision },
        idempotencyKey: optionalIdempotencyKey(options),
      }),
  };
}
