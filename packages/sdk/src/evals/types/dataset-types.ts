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
 * A file to pin to a case: an uploaded artifact, bytes (`data`: bytes or a base64 string; or
 * `path`: a file to read), or a file a trace holds (copied by `{ traceId, sha256 }`). Each file
 * is 1 byte to 25 MiB; a name is 1 to 255 UTF-16 code units, a plain file name.
 */
export type CaseFileInput =
  | { role: CaseFileRole; artifactId: string; name?: string }
  | { role: CaseFileRole; name: string; contentType: string; data: Uint8Array | ArrayBuffer | string }
  | { role: CaseFileRole; name: string; contentType: string; path: string }
  | { role: CaseFileRole; name?: string; trace: { traceId: string; sha256: string } };

/** A file pinned to a case. */
export interface PinnedFile {
  role: CaseFileRole;
  name: string;
  contentType: string;
  /** SHA-256 of the bytes, 64 lowercase hex. */
  sha256: string;
  size: number;
  /** The artifact the bytes were uploaded as, if any. */
  artifactId: string | null;
  /** The trace (32 hex) the file was copied from, if any. */
  sourceTraceId: string | null;
}

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
  /** Up to 32 files; files given as bytes or a path are uploaded first. */
  files?: CaseFileInput[];
}

/**
 * An eval-set case write: a case whose files are the document inputs of a direct-case run. At
 * least one file has a role the agent sees (`source`, `attached_template`, `attached_reference`,
 * `original`); `inputs` defaults to `{}`.
 */
export interface EvalSetCaseWrite extends Omit<CaseWrite, 'inputs' | 'files'> {
  inputs?: unknown;
  files: CaseFileInput[];
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
  files: PinnedFile[];
  createdAt: string;
  updatedAt: string;
}

/** The answer of a case write: the case, and the version at its new revision. */
export interface CaseWriteResult {
  item: DatasetCase;
  version: DatasetVersion;
}
