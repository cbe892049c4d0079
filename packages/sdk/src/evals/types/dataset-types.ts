/**
 * Datasets, dataset versions and cases, as the evaluation client sends and returns them.
 * @module
 */

/** A dataset. */
export interface Dataset {
  id: string;
  name: string;
  slug: string;
  description?: string;
  /** The newest version, or `null` before the first. */
  latestVersionId: string | null;
  versionCount: number;
  createdAt: string;
}

/** A dataset version. Every write (case write, freeze) raises `revision` by one. */
export interface DatasetVersion {
  id: string;
  datasetId: string;
  /** 1 for the first version of the dataset, then 2, 3, … */
  number: number;
  /** Pass as `expectedRevision` to write; a stale revision is refused (409 `stale_revision`). */
  revision: number;
  /** The version whose cases this one started with. */
  fromVersionId: string | null;
  /** A frozen version refuses writes (409 `frozen`). */
  frozen: boolean;
  frozenAt: string | null;
  caseCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Options of `createDatasetVersion`. */
export interface CreateDatasetVersionInput {
  /** Start with a copy of the cases (and pinned files) of this version of the same dataset. */
  fromVersionId?: string;
}

/** The roles of case files; the last two are seen by evaluators only. */
export type CaseFileRole =
  | 'source'
  | 'attached_template'
  | 'attached_reference'
  | 'original'
  | 'org_template'
  | 'evaluator_reference';

/**
 * A case write. Omitting `expected` means the case has no reference; `expected: null` is a present
 * reference. Writing an `externalKey` that exists in the version replaces that case.
 */
export interface CaseWrite {
  /** The version's current revision. */
  expectedRevision: number;
  /** Your key of the case, unique in the version; 1 to 256 characters. */
  externalKey: string;
  /** Any JSON value. */
  inputs: unknown;
  /** Any JSON value; omit for no reference. */
  expected?: unknown;
  /** A JSON object. */
  metadata?: Record<string, unknown>;
}

/** A case of a dataset version. */
export interface DatasetCase {
  id: string;
  versionId: string;
  /** `eval_set`: a case written by `addEvalSetCase`. */
  kind: 'case' | 'eval_set';
  externalKey: string;
  inputs: unknown;
  /** Absent when the case has no reference; `null` is a present reference. */
  expected?: unknown;
  metadata?: Record<string, unknown>;
  files: unknown[];
  createdAt: string;
  updatedAt: string;
}

/** The answer of a case write: the case, and the version at its new revision. */
export interface CaseWriteResult {
  item: DatasetCase;
  version: DatasetVersion;
}
