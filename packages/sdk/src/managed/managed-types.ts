/**
 * The public types of managed targets: what the target receives and what it returns.
 * @module
 */
import type { JsonValue } from '../evals/scorers/scorer-definitions.js';

/** A terminal outcome a target reports. */
export type ManagedOutcomeState = 'succeeded' | 'error' | 'cancelled';

/** The identity of the execution a target runs. */
export interface ManagedExecutionIdentity {
  executionId: string;
  experimentId: string;
  caseId: string;
  /** 1 for the first attempt at the case, then 2, 3, … */
  attempt: number;
}

/** A case file handed to the target, its SHA-256 and size verified against the case. */
export interface ManagedInputFile {
  /** `source`, `attached_template`, `attached_reference` or `original` (the roles the agent sees). */
  role: string;
  name: string;
  contentType: string;
  /** Lowercase hex SHA-256 of `bytes`. */
  sha256: string;
  size: number;
  bytes: Uint8Array;
}

/** What the target receives for one case. */
export interface ManagedTargetInput {
  /** The case's application input. */
  inputs: JsonValue;
  /** The experiment's configuration. */
  config: Record<string, JsonValue>;
  /** The case files the agent sees, downloaded and verified (SHA-256 and size). */
  files: ManagedInputFile[];
  execution: ManagedExecutionIdentity;
  /** The trace of the execution (32 lowercase hex): the handler's span when a tracer is given. */
  traceId: string;
  /** Aborted when `maxExecutionMillis` runs out; the handler then saves the outcome `cancelled`. */
  signal: AbortSignal;
}

/** An output file the target returns. */
export interface ManagedOutputFile {
  /** A file name: 1 to 255 UTF-16 code units, no `/` or `\`, no control characters, not `.` or `..`. */
  name: string;
  /** A media type such as `application/pdf`. */
  contentType: string;
  /** The bytes: 1 byte to 25 MiB. */
  data: Uint8Array;
}

/** Usage the target reports; every field optional. Token counts are integers ≥ 0. */
export interface ManagedUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  /** Cost in US dollars, a finite number ≥ 0. */
  costUsd?: number;
}

/** An execution error as saved: a type, and optionally a message (kept up to 4096 characters). */
export interface ManagedErrorInfo {
  type: string;
  message?: string;
}

/** What the target returns. */
export interface ManagedTargetResult {
  /** The output, a JSON value (at most about 1 MiB of JSON); omitted means no output. */
  output?: JsonValue;
  /** Output files: at most 32, unique names, each 1 byte to 25 MiB. */
  files?: ManagedOutputFile[];
  usage?: ManagedUsage;
  /** The safe terminal outcome; default `succeeded`. */
  outcome?: ManagedOutcomeState;
  /** Why the outcome is `error` (default type `TargetError`) or `cancelled`; not with `succeeded`. */
  error?: ManagedErrorInfo;
}

/** The application's agent, run once per claimed execution. */
export type ManagedTarget = (input: ManagedTargetInput) => ManagedTargetResult | Promise<ManagedTargetResult>;

/** The summary a handler answers with (HTTP 200) once the outcome is saved. */
export interface ManagedHandlerSummary {
  executionId: string;
  state: ManagedOutcomeState;
  outcomeSaved: true;
  /** Output files saved with the outcome. */
  outputFiles: number;
  /** Whether `flushTelemetry` settled without error within the finalization budget. */
  telemetryFlushed: boolean;
}
