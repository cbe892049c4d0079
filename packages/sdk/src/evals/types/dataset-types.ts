/**
 * Datasets, dataset versions and cases, as the evaluation client sends and returns them. The
 * service's answers are its wire shapes (`wire-types.generated.ts`, from the server's schemas).
 * @module
 */
import type * as Wire from './wire-types.generated.js';

/** A dataset. */
export type Dataset = Wire.Dataset;

/** A dataset version. Every write (case write, freeze) raises `revision` by one; a frozen version refuses writes (409 `frozen`). */
export type DatasetVersion = Wire.DatasetVersion;

/** Options of `createDatasetVersion`. */
export interface CreateDatasetVersionInput {
  /** Start with a copy of the cases (and pinned files) of this version of the same dataset. */
  fromVersionId?: string;
}

/** The roles of case files; the last two are seen by evaluators only. */
export type CaseFileRole = Wire.PinnedFile['role'];

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
export type PinnedFile = Wire.PinnedFile;

/**
 * A case write. Omitting `expected` means the case has no reference; `expected: null` is a present
 * reference. Writing an `externalKey` that exists in the version replaces that case.
 */
export interface CaseWrite extends Omit<Wire.CaseWrite, 'files'> {
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

/** A case of a dataset version. `expected` is absent when the case has no reference; `null` is a present reference. */
export type DatasetCase = Wire.Case;

/** The answer of a case write: the case, and the version at its new revision. */
export type CaseWriteResult = Wire.CaseWriteResult;
