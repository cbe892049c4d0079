/**
 * The direct-case command output document (`svc eval --json`): every case with its state, the
 * totals, the run's viewer link, `mode: "direct"`, the deferred scorer versions and whether grading
 * is complete. Its JSON Schema is `eval-document.schema.json` beside this file, published as
 * `@svc-run/cli/eval-document.schema.json`.
 * @module
 */
import type { BaselineComparison } from './baseline.js';
import type { CaseMetric, CaseOutcome, CaseState } from './case-states.js';
import type { CommandRecord } from './command-records.js';

/** A scorer of the run. */
export interface DocumentScorer {
  slug: string;
  scorerId: string;
  scorerVersionId: string;
  /** The version's number. */
  version: number;
  kind: string;
}

/** One scorer's verdict on a case. */
export interface DocumentScore {
  scorer: string;
  scorerVersionId: string;
  status: 'scored' | 'error' | 'skipped' | 'pending';
  metrics?: CaseMetric[];
  explanation?: string;
  error?: { type: string; message?: string };
}

/** How a case's command ended (kept in the run's checkpoint directory). */
export interface DocumentCommand {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMillis: number;
  /** The last 16 KiB of stdout. */
  stdout: string;
  stdoutBytes: number;
  stdoutTruncated: boolean;
  /** The last 16 KiB of stderr. */
  stderr: string;
  stderrBytes: number;
  stderrTruncated: boolean;
}

/** An output file of a case. */
export interface DocumentOutputFile {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** A case of the document. */
export interface DocumentCase {
  caseId: string;
  externalKey: string;
  state: CaseState;
  executionId: string | null;
  attempt: number | null;
  traceId: string | null;
  traceUrl: string | null;
  /** `null` when this run did not run the command (or its report was lost). */
  command: DocumentCommand | null;
  outputFiles: DocumentOutputFile[];
  scores: DocumentScore[];
  /** The failed metrics, with the scorer's explanation. */
  failures: { scorer: string; metric: string; explanation?: string }[];
  error?: { type: string; message: string };
}

/** Counts of cases by state. */
export interface DocumentTotals {
  cases: number;
  passed: number;
  failed: number;
  errored: number;
  pending: number;
}

/** The direct-case command output document. */
export interface EvalDocument {
  mode: 'direct';
  /** The experiment's page in the viewer. */
  runUrl: string;
  experimentId: string;
  runId: string;
  /** The run's number in its checkpoint directory. */
  runNumber: number;
  checkpointDirectory: string;
  evalSet: { slug: string; datasetId: string; versionId: string; version: number };
  revision: string | null;
  scorers: DocumentScorer[];
  cases: DocumentCase[];
  totals: DocumentTotals;
  /** Scorer versions not scored by `svc eval` itself: hosted judges, manual scorers, local code without its module. */
  deferredScorerVersionIds: string[];
  /** False while a case has checks pending. */
  complete: boolean;
  baseline?: BaselineComparison;
}

/** The document's case for `outcome`. */
export function documentCase(
  outcome: CaseOutcome,
  context: {
    origin: string;
    slugOf: (scorerVersionId: string) => string;
    command: CommandRecord | undefined;
    outputFiles: DocumentOutputFile[];
  },
): DocumentCase {
  const { command } = context;
  return {
    caseId: outcome.caseId,
    externalKey: outcome.externalKey,
    state: outcome.state,
    executionId: outcome.executionId,
    attempt: outcome.attempt,
    traceId: outcome.traceId,
    traceUrl: outcome.traceId === null ? null : new URL(`/traces/${outcome.traceId}`, context.origin).href,
    command:
      command === undefined
        ? null
        : {
            exitCode: command.exitCode,
            signal: command.signal,
            timedOut: command.timedOut,
            durationMillis: command.durationMillis,
            stdout: command.stdout.text,
            stdoutBytes: command.stdout.bytes,
            stdoutTruncated: command.stdout.truncated,
            stderr: command.stderr.text,
            stderrBytes: command.stderr.bytes,
            stderrTruncated: command.stderr.truncated,
          },
    outputFiles: context.outputFiles,
    scores: outcome.scores.map((score) => ({ scorer: context.slugOf(score.scorerVersionId), ...score })),
    failures: outcome.failures.map(({ scorerVersionId, ...failure }) => ({
      scorer: context.slugOf(scorerVersionId),
      ...failure,
    })),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}

/** The totals of `cases`. */
export function totalsOf(cases: readonly { state: CaseState }[]): DocumentTotals {
  const count = (state: CaseState) => cases.filter((item) => item.state === state).length;
  return {
    cases: cases.length,
    passed: count('PASS'),
    failed: count('FAIL'),
    errored: count('ERROR'),
    pending: count('PENDING'),
  };
}
