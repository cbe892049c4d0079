/**
 * Error codes of scenarios, beside the service's common ones and the registry's (see
 * `error-codes.ts`).
 * @module
 */

/**
 * - `invalid_scenario`: the scenario document has problems; `error.problems` lists each with its
 *   path (400 when it breaks the document's JSON Schema, 422 when only rules beyond it).
 * - `already_sealed`: the trial's outcome is sealed; a sealed outcome is never sealed twice.
 * - `trial_closed`: the trial's world takes no more calls (sealed or expired); its token is dead.
 * - `no_live_worker`: a run was launched with no live local agent to serve it.
 */
export const SCENARIO_ERROR_CODES = [
  'invalid_scenario',
  'already_sealed',
  'trial_closed',
  'no_live_worker',
] as const;

/** A code of {@link SCENARIO_ERROR_CODES}. */
export type ScenarioErrorCode = (typeof SCENARIO_ERROR_CODES)[number];
