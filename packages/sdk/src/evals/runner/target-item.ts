/**
 * The case as `runExperiment`'s target sees it (DESIGN: "Agents (targets) never see what only
 * evaluators may"): its identity, its inputs and the files the agent sees — the rule the managed
 * claim applies, kept once in `@svc-run/conventions`. Never `expected`, the case's `metadata`,
 * the files of evaluator-only roles (`org_template`, `evaluator_reference`), the earlier
 * execution's record, nor anything of the scorers: those are for scorers only.
 * @module
 */
import { AGENT_FILE_ROLES } from '@svc-run/conventions';
import type { CaseFileRole, PinnedFile } from '../types/dataset-types.js';
import type { ExperimentItem } from '../types/experiment-types.js';

/** A case file the agent sees. */
export interface TargetFile extends PinnedFile {
  role: Extract<CaseFileRole, 'source' | 'attached_template' | 'attached_reference' | 'original'>;
}

/** The case a target runs: what the agent may see of an experiment item. */
export interface TargetItem {
  /** The case (its ID in the dataset version). */
  caseId: string;
  versionId: string;
  /** `eval_set`: a case written by `addEvalSetCase`. */
  kind: 'case' | 'eval_set';
  /** Your key of the case. */
  externalKey: string;
  /** The case's inputs (also the target's first argument). */
  inputs: unknown;
  /** The files of the roles the agent sees (`source`, `attached_template`, `attached_reference`, `original`). */
  files: TargetFile[];
}

/** What the target of `item` receives as `context.item`: a new object holding only what agents see. */
export function targetItem(item: ExperimentItem): TargetItem {
  return {
    caseId: item.caseId,
    versionId: item.versionId,
    kind: item.kind,
    externalKey: item.externalKey,
    inputs: item.inputs,
    files: item.files
      .filter((file): file is TargetFile => AGENT_FILE_ROLES.has(file.role))
      .map((file) => ({ ...file })),
  };
}
