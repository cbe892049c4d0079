/**
 * Datasets, their versions and cases in the embedded database. Methods run inside the calling
 * route's transaction (see `registerEvalRoute`); they throw `ApiError`s the routes answer with.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { Identity } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { fromColumn, toColumn, withOptional } from '../core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../core/paging.js';
import { requireRow } from '../core/require-row.js';
import { VersionedIdentities } from '../core/versioned-identities.js';
import type { PinnedFile } from '../files/case-files.js';
import type { CaseSchema, DatasetSchema, DatasetVersionSchema } from './dataset-schemas.js';

export type Dataset = z.output<typeof DatasetSchema>;
export type DatasetVersion = z.output<typeof DatasetVersionSchema>;
export type Case = z.output<typeof CaseSchema>;

/** What a case write stores. */
export interface CaseWrite {
  expectedRevision: number;
  externalKey: string;
  inputs: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown> | undefined;
}

interface VersionRow {
  seq: number;
  id: string;
  dataset_id: string;
  number: number;
  revision: number;
  from_version_id: string | null;
  frozen_at: string | null;
  created_at: string;
  updated_at: string;
  case_count: number;
}

interface CaseRow {
  seq: number;
  id: string;
  version_id: string;
  kind: 'case' | 'eval_set';
  external_key: string;
  inputs: string;
  expected: string | null;
  metadata: string | null;
  files: string;
  created_at: string;
  updated_at: string;
}

const VERSION_COLUMNS = `v.seq, v.id, v.dataset_id, v.number, v.revision, v.from_version_id, v.frozen_at,
  v.created_at, v.updated_at, (SELECT COUNT(*) FROM eval_cases c WHERE c.version_id = v.id) AS case_count`;

function toVersion(row: VersionRow): DatasetVersion {
  return {
    id: row.id,
    datasetId: row.dataset_id,
    number: Number(row.number),
    revision: Number(row.revision),
    fromVersionId: row.from_version_id,
    frozen: row.frozen_at !== null,
    frozenAt: row.frozen_at,
    caseCount: Number(row.case_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A case row as the API shows it. */
export function toCase(row: CaseRow): Case {
  const item: Case = {
    id: row.id,
    versionId: row.version_id,
    kind: row.kind,
    externalKey: row.external_key,
    inputs: JSON.parse(row.inputs) as Case['inputs'],
    files: JSON.parse(row.files) as Case['files'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  withOptional(item, 'expected', fromColumn(row.expected));
  return withOptional(item, 'metadata', fromColumn(row.metadata));
}

/** Datasets, versions and cases. */
export class DatasetStore {
  readonly #context: EvalContext;
  readonly #datasets: VersionedIdentities;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext) {
    this.#context = context;
    this.#datasets = new VersionedIdentities(context, {
      table: 'eval_datasets',
      versions: 'eval_dataset_versions',
      owner: 'dataset_id',
      noun: 'dataset',
    });
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertVersion: prepare(
        `INSERT INTO eval_dataset_versions (id, dataset_id, number, revision, from_version_id, frozen_at, created_at, updated_at)
         VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM eval_dataset_versions WHERE dataset_id = ?), 0, ?, NULL, ?, ?)`,
      ),
      version: prepare(`SELECT ${VERSION_COLUMNS} FROM eval_dataset_versions v WHERE v.id = ?`),
      versions: prepare(
        `SELECT ${VERSION_COLUMNS} FROM eval_dataset_versions v WHERE v.dataset_id = ? AND v.seq > ? ORDER BY v.seq LIMIT ?`,
      ),
      bumpRevision: prepare(
        'UPDATE eval_dataset_versions SET revision = revision + 1, updated_at = ? WHERE id = ?',
      ),
      freeze: prepare(
        'UPDATE eval_dataset_versions SET revision = revision + 1, frozen_at = ?, updated_at = ? WHERE id = ?',
      ),
      cases: prepare('SELECT * FROM eval_cases WHERE version_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
      allCases: prepare('SELECT * FROM eval_cases WHERE version_id = ? ORDER BY seq'),
      caseById: prepare('SELECT * FROM eval_cases WHERE id = ?'),
      caseByKey: prepare('SELECT * FROM eval_cases WHERE version_id = ? AND external_key = ?'),
      insertCase: prepare(
        `INSERT INTO eval_cases (id, version_id, kind, external_key, inputs, expected, metadata, files, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateCase: prepare(
        'UPDATE eval_cases SET kind = ?, inputs = ?, expected = ?, metadata = ?, files = ?, updated_at = ? WHERE id = ?',
      ),
    };
  }

  /** Creates a dataset. @throws 409 `conflict` when the slug is taken. */
  createDataset(identity: Identity): Dataset {
    return this.#datasets.create(identity);
  }

  /** A dataset. @throws 404 when unknown. */
  getDataset(id: string): Dataset {
    return this.#datasets.get(id);
  }

  /** A page of datasets, oldest first. */
  listDatasets(page: PageRequest): Page<Dataset> {
    return this.#datasets.list(page);
  }

  /**
   * Creates the next version of a dataset, empty or with a copy of the cases of `fromVersionId`
   * (a version of the same dataset, frozen or not).
   */
  createVersion(datasetId: string, fromVersionId: string | undefined): DatasetVersion {
    this.getDataset(datasetId);
    if (fromVersionId !== undefined) {
      const from = this.#versionRow(fromVersionId, 'fromVersionId');
      if (from.dataset_id !== datasetId) {
        throw new ApiError(404, 'not_found', 'fromVersionId is not a version of this dataset.');
      }
    }
    const id = randomUUID();
    const now = this.#context.now();
    this.#sql.insertVersion!.run(id, datasetId, datasetId, fromVersionId ?? null, now, now);
    if (fromVersionId !== undefined) {
      for (const row of this.#sql.allCases!.all(fromVersionId) as unknown as CaseRow[]) {
        this.#sql.insertCase!.run(
          randomUUID(),
          id,
          row.kind,
          row.external_key,
          row.inputs,
          row.expected,
          row.metadata,
          row.files,
          now,
          now,
        );
      }
    }
    return this.getVersion(id);
  }

  /** A page of the versions of a dataset, oldest (number 1) first. @throws 404 when the dataset is unknown. */
  listVersions(datasetId: string, page: PageRequest): Page<DatasetVersion> {
    this.getDataset(datasetId);
    return readPage(this.#sql.versions!, page, toVersion, datasetId);
  }

  /** A dataset version. @throws 404 when unknown. */
  getVersion(id: string): DatasetVersion {
    return toVersion(this.#versionRow(id, 'versionId'));
  }

  /** A page of the cases of a version, in the order they were first written. */
  listCases(versionId: string, page: PageRequest): Page<Case> {
    this.#versionRow(versionId, 'versionId');
    return readPage(this.#sql.cases!, page, toCase, versionId);
  }

  /** Every case of a version, in order (for experiments). */
  allCases(versionId: string): Case[] {
    return (this.#sql.allCases!.all(versionId) as unknown as CaseRow[]).map(toCase);
  }

  /** A case, or `undefined`. */
  findCase(caseId: string): Case | undefined {
    const row = this.#sql.caseById!.get(caseId) as CaseRow | undefined;
    return row === undefined ? undefined : toCase(row);
  }

  /**
   * Writes a case: adds it, or replaces the case of the same `externalKey` (keeping its ID and
   * position). The version must not be frozen and `expectedRevision` must be its revision.
   */
  writeCase(
    versionId: string,
    write: CaseWrite,
    kind: 'case' | 'eval_set',
    files: readonly PinnedFile[] = [],
  ): { item: Case; version: DatasetVersion } {
    this.#writableVersion(versionId, write.expectedRevision);
    const now = this.#context.now();
    const inputs = JSON.stringify(write.inputs);
    const expected = toColumn(write.expected);
    const metadata = toColumn(write.metadata);
    const filesText = JSON.stringify(files);
    const existing = this.#sql.caseByKey!.get(versionId, write.externalKey) as CaseRow | undefined;
    let id: string;
    if (existing === undefined) {
      id = randomUUID();
      this.#sql.insertCase!.run(
        id,
        versionId,
        kind,
        write.externalKey,
        inputs,
        expected,
        metadata,
        filesText,
        now,
        now,
      );
    } else {
      id = existing.id;
      this.#sql.updateCase!.run(kind, inputs, expected, metadata, filesText, now, id);
    }
    this.#sql.bumpRevision!.run(now, versionId);
    return {
      item: toCase(this.#sql.caseById!.get(id) as unknown as CaseRow),
      version: this.getVersion(versionId),
    };
  }

  /** Freezes a version: it refuses writes from then on. */
  freeze(versionId: string, expectedRevision: number): DatasetVersion {
    this.#writableVersion(versionId, expectedRevision);
    const now = this.#context.now();
    this.#sql.freeze!.run(now, now, versionId);
    return this.getVersion(versionId);
  }

  #versionRow(id: string, name: string): VersionRow {
    return requireRow(
      this.#sql.version!,
      id,
      `No dataset version has this ID (${name}).`,
      (row: VersionRow) => row,
    );
  }

  #writableVersion(versionId: string, expectedRevision: number): VersionRow {
    const row = this.#versionRow(versionId, 'versionId');
    if (row.frozen_at !== null) {
      throw new ApiError(
        409,
        'frozen',
        'This dataset version is frozen and refuses writes; create a new version (fromVersionId) to change its cases.',
      );
    }
    if (Number(row.revision) !== expectedRevision) {
      throw new ApiError(
        409,
        'stale_revision',
        `expectedRevision ${expectedRevision} is stale: the version is at revision ${Number(row.revision)}. Read the version again and retry with its current revision.`,
      );
    }
    return row;
  }
}
