/**
 * The dataset methods of the evaluation client.
 * @module
 */

import { createHash } from 'node:crypto';
import { SvcApiError } from '../../errors/svc-api-error.js';
import type { Identity, Page, PageOptions, RequestOptions } from '../types/common-types.js';
import type {
  CaseWrite,
  CaseWriteResult,
  CreateDatasetVersionInput,
  Dataset,
  DatasetCase,
  DatasetVersion,
  EvalSetCaseWrite,
} from '../types/dataset-types.js';
import { idSegment, optionalIdempotencyKey, pageQuery, requireObject } from './argument-checks.js';
import { MAX_CASE_FILE_BYTES, uploadCaseFiles } from './case-file-uploads.js';
import type { EvalTransport } from './eval-transport.js';
import { transfer, transferTimeout } from './file-transfer.js';

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
  /** A page of the versions of a dataset, oldest (number 1) first. */
  listDatasetVersions(datasetId: string, page?: PageOptions): Promise<Page<DatasetVersion>>;
  /** Reads a dataset version. */
  getDatasetVersion(versionId: string): Promise<DatasetVersion>;
  /** A page of the cases of a version, in the order they were first written. */
  listCases(versionId: string, page?: PageOptions): Promise<Page<DatasetCase>>;
  /**
   * Writes a case (adds it, or replaces the case of the same `externalKey`). Files given as bytes
   * or a path are uploaded first.
   */
  addCase(versionId: string, write: CaseWrite, options?: RequestOptions): Promise<CaseWriteResult>;
  /**
   * Writes an eval-set case: a case whose files are the document inputs of a direct-case run (at
   * least one file of a role the agent sees; `inputs` default `{}`).
   */
  addEvalSetCase(
    versionId: string,
    write: EvalSetCaseWrite,
    options?: RequestOptions,
  ): Promise<CaseWriteResult>;
  /** The bytes of a file pinned to a case, checked against its SHA-256 and size. */
  downloadCaseFile(caseId: string, sha256: string): Promise<Uint8Array>;
  /** Freezes a version: it refuses writes from then on. */
  freezeDatasetVersion(
    versionId: string,
    expectedRevision: number,
    options?: RequestOptions,
  ): Promise<DatasetVersion>;
}

const BASE = '/api/v1/evals';

interface CaseFileLink {
  url: string;
  sha256: string;
  size: number;
}

/** The dataset methods on `send`; `timeoutMillis` bounds each file transfer (at least a minute). */
export function datasetMethods(send: EvalTransport, timeoutMillis: number): DatasetMethods {
  async function writeCase(
    operation: string,
    segment: string,
    versionId: string,
    write: CaseWrite | EvalSetCaseWrite,
    options: RequestOptions | undefined,
  ) {
    const path = `${BASE}/dataset-versions/${idSegment('versionId', versionId)}/${segment}`;
    requireObject('write', write);
    const idempotencyKey = optionalIdempotencyKey(options);
    const files = await uploadCaseFiles(operation, send, write.files, idempotencyKey, timeoutMillis);
    return send<CaseWriteResult>({
      operation,
      method: 'POST',
      path,
      body: files === undefined ? write : { ...write, files },
      idempotencyKey,
    });
  }
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
    listDatasetVersions: async (datasetId, page) =>
      send({
        operation: 'listDatasetVersions',
        method: 'GET',
        path: `${BASE}/datasets/${idSegment('datasetId', datasetId)}/versions`,
        query: pageQuery(page),
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
    addCase: async (versionId, write, options) => writeCase('addCase', 'cases', versionId, write, options),
    addEvalSetCase: async (versionId, write, options) =>
      writeCase('addEvalSetCase', 'eval-set-cases', versionId, write, options),
    downloadCaseFile: async (caseId, sha256) => {
      const path = `${BASE}/cases/${idSegment('caseId', caseId)}/files/${idSegment('sha256', sha256)}`;
      const link = await send<CaseFileLink>({ operation: 'downloadCaseFile', method: 'GET', path });
      const answer = await transfer('downloadCaseFile', link.url, {
        method: 'GET',
        maxBytes: MAX_CASE_FILE_BYTES,
        timeoutMillis: transferTimeout(timeoutMillis),
      });
      if (answer.status !== 200 || answer.body === undefined) {
        throw new SvcApiError(
          `downloadCaseFile: the download was refused (HTTP ${answer.status}${answer.code ? `, ${answer.code}` : ''}).`,
          { status: answer.status, ...(answer.code === undefined ? {} : { code: answer.code }) },
        );
      }
      const digest = createHash('sha256').update(answer.body).digest('hex');
      if (digest !== link.sha256 || answer.body.length !== link.size) {
        throw new SvcApiError(
          'downloadCaseFile: the downloaded bytes do not match the file (SHA-256 or size differ).',
          {
            status: answer.status,
          },
        );
      }
      return new Uint8Array(answer.body);
    },
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
