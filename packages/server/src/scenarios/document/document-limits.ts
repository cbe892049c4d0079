/**
 * Limits of a scenario document and of its trials, in one place (documented in the README).
 * @module
 */

/** Most tools of a world. */
export const MAX_TOOLS = 64;
/** Most cases of a scenario. */
export const MAX_CASES = 100;
/** Most checks of a document (before they are given to their cases). */
export const MAX_CHECKS = 1000;
/** Most deterministic checks (state, tool-call, output) one case has: one metric each, as a scorer version holds at most 32. */
export const MAX_CASE_CHECKS = 32;
/** Most `llm_judge` checks one case has (each is a hosted judge job per trial). */
export const MAX_CASE_JUDGES = 8;
/** Most preconditions of one tool. */
export const MAX_PRECONDITIONS = 16;
/** Most filters of one query. */
export const MAX_FILTERS = 16;
/** Most agent-visible files of one case, as for dataset cases. */
export const MAX_CASE_FILES = 32;
/** Most operations changing a case's initial state. */
export const MAX_STATE_CHANGES = 100;
/** Largest JSON text of a world's state, initially and after any call (1 MiB). */
export const MAX_STATE_BYTES = 1024 * 1024;
/** Most tool calls one trial may make; past it, calls are error results. */
export const MAX_TOOL_CALLS = 1000;
