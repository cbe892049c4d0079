/**
 * The roles of the files pinned to an evaluation case (spec "Evaluation objects": "Case file
 * roles"), and which of them the agent sees. One rule for the server (the managed claim hands the
 * agent only these files; an eval-set case needs one of them) and the SDK (`runExperiment` hands
 * its target only these files): agents never see what only evaluators may.
 * @module
 */

/** Every case file role: the first four are visible to the agent, the last two to evaluators only. */
export const CASE_FILE_ROLES = [
  'source',
  'attached_template',
  'attached_reference',
  'original',
  'org_template',
  'evaluator_reference',
] as const;

/** The roles of the files the agent sees (`context.files`). */
export const AGENT_FILE_ROLES: ReadonlySet<string> = new Set([
  'source',
  'attached_template',
  'attached_reference',
  'original',
]);
