/**
 * The rows of trials and tool calls, and how the API shows them.
 * @module
 */
import type { CheckResult, TrialOutcome } from '../grading/trial-outcome.js';
import type { JsonValue } from '../world/json-pointer.js';
import type { ToolResult } from '../world/world-types.js';

/** A trial row. */
export interface TrialRow {
  seq: number;
  id: string;
  run_id: string;
  case_key: string;
  trial: number;
  world_id: string;
  token_hash: string;
  state: 'open' | 'sealed';
  world_state: string;
  call_count: number;
  trace_id: string | null;
  opened_at: string;
  expires_at_ms: number;
  execution_state: 'succeeded' | 'error' | null;
  output: string | null;
  error: string | null;
  seal: string | null;
  sealed_at: string | null;
  execution_id: string | null;
  evaluation_item_id: string | null;
  grading: string | null;
}

/** A check as the trial keeps it: its result, and for a hosted judge the scorer version grading it. */
export interface StoredCheck extends CheckResult {
  /** The sealed hosted-judge scorer version (llm_judge checks). */
  judgeVersionId?: string;
}

/** A trial as the API shows it. Checks appear by name once sealed; what they expect, never. */
export interface Trial {
  id: string;
  runId: string;
  scenarioVersionId: string;
  caseKey: string;
  caseId: string;
  /** The trial's index for its case, 1 to the run's `trials`. */
  trial: number;
  worldId: string;
  state: 'open' | 'sealed';
  /** True once the world takes no more calls (sealed, or past `expiresAt`). */
  closed: boolean;
  traceId: string | null;
  openedAt: string;
  expiresAt: string;
  toolCallCount: number;
  sealedAt: string | null;
  /** SHA-256 (hex) over the canonical JSON of the sealed outcome (output, final state, tool calls). */
  seal: string | null;
  executionState: 'succeeded' | 'error' | null;
  output?: unknown;
  error?: { type: string; message?: string };
  /** The world's state as sealed. */
  finalState?: JsonValue;
  outcome: TrialOutcome | null;
  checks: CheckResult[];
  failedChecks: string[];
  executionId: string | null;
  evaluationItemId: string | null;
}

/** A recorded tool call. */
export interface ToolCall {
  seq: number;
  tool: string;
  arguments: unknown;
  result: ToolResult;
  at: string;
}

/** A tool-call row. */
export interface ToolCallRow {
  seq: number;
  tool: string;
  arguments: string;
  result: string;
  is_error: number;
  at: string;
}

/** A tool-call row as the API shows it. */
export function toToolCall(row: ToolCallRow): ToolCall {
  return {
    seq: Number(row.seq),
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as unknown,
    result: JSON.parse(row.result) as ToolResult,
    at: row.at,
  };
}
