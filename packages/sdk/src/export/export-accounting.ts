/**
 * Export accounting: every record the application produced ends in exactly one counter —
 * accepted, rejected, failed or dropped — and is pending until then. Keeps the latest 128
 * export issues and the sequence number of the latest failure.
 * @module
 */

import { reportFailure } from '../diagnostics/report-failure.js';
import type { ExportIssue } from '../options/svc-options.js';
import type { ExportReport } from './export-report.js';

/** The two exported signals. */
export type Signal = ExportIssue['signal'];

/** Issues kept; older ones are forgotten. */
export const MAX_KEPT_ISSUES = 128;

interface Counters {
  accepted: number;
  rejected: number;
  failed: number;
  dropped: number;
  pending: number;
  /** Dropped records not yet reported in a `dropped` issue. */
  unreportedDrops: number;
}

const FAILURE_KINDS: ReadonlySet<ExportIssue['kind']> = new Set(['rejected', 'failed', 'dropped', 'invalid']);

/** How an exported batch ended, by record. */
export interface Settlement {
  accepted?: number;
  rejected?: number;
  failed?: number;
}

/** The counters and issues of one transport. */
export class ExportAccounting {
  readonly #counters: Record<Signal, Counters> = {
    traces: { accepted: 0, rejected: 0, failed: 0, dropped: 0, pending: 0, unreportedDrops: 0 },
    logs: { accepted: 0, rejected: 0, failed: 0, dropped: 0, pending: 0, unreportedDrops: 0 },
  };
  readonly #issues: ExportIssue[] = [];
  readonly #onIssue: ((issue: ExportIssue) => void) | undefined;
  #sequence = 0;
  #failureSequence = 0;
  #uploadedValues = 0;
  #uploadFallbacks = 0;

  constructor(onIssue?: (issue: ExportIssue) => void) {
    this.#onIssue = onIssue;
  }

  /** A record entered the queue. */
  queued(signal: Signal): void {
    this.#counters[signal].pending++;
  }

  /** A record was refused by a full queue (or after shutdown); reported by {@link reportDrops}. */
  dropped(signal: Signal, count = 1): void {
    const c = this.#counters[signal];
    c.dropped += count;
    c.unreportedDrops += count;
  }

  /** Raises one `dropped` issue for the drops not yet reported, if any. */
  reportDrops(signal: Signal): void {
    const c = this.#counters[signal];
    if (c.unreportedDrops === 0) return;
    const count = c.unreportedDrops;
    c.unreportedDrops = 0;
    const what = signal === 'traces' ? 'spans' : 'log records';
    this.raise(
      signal,
      'dropped',
      count,
      `${count} ${what} dropped: the export queue (2048 records) was full`,
    );
  }

  /** Pending records reached their end. */
  settle(signal: Signal, { accepted = 0, rejected = 0, failed = 0 }: Settlement): void {
    const c = this.#counters[signal];
    c.accepted += accepted;
    c.rejected += rejected;
    c.failed += failed;
    c.pending -= accepted + rejected + failed;
  }

  /** A file is stored under its trace (uploaded, or found already held there). */
  uploaded(): void {
    this.#uploadedValues++;
  }

  /**
   * `count` files could not be uploaded and kept their digest or inline form: counted in
   * `uploadFallbacks`, with one `warning` issue (a fallback never fails a flush). `reason` must
   * already be free of keys, bodies and content.
   */
  uploadFallback(signal: Signal, count: number, reason: string): void {
    this.#uploadFallbacks += count;
    const files = count === 1 ? '1 file' : `${count} files`;
    this.raise(signal, 'warning', count, `${files} not uploaded: ${reason}`);
  }

  /** Records and delivers an issue. `message` must already be free of keys, bodies and content. */
  raise(
    signal: Signal,
    kind: ExportIssue['kind'],
    count: number,
    message: string,
    status?: number,
  ): ExportIssue {
    const issue: ExportIssue = { sequence: ++this.#sequence, signal, kind, count, message };
    if (status !== undefined) issue.status = status;
    if (FAILURE_KINDS.has(kind)) this.#failureSequence = issue.sequence;
    this.#issues.push(issue);
    if (this.#issues.length > MAX_KEPT_ISSUES) this.#issues.shift();
    if (this.#onIssue) {
      try {
        this.#onIssue({ ...issue });
      } catch (error) {
        // A failing callback must not disturb exporting; the application's own error is told on
        // diag, by its type only (its message may quote what the callback handled).
        reportFailure('warn', 'the onExportIssue callback threw; the issue is kept in getIssues()', error, {
          message: false,
        });
      }
    }
    return issue;
  }

  /** The cumulative counters. */
  report(): ExportReport {
    const t = this.#counters.traces;
    const l = this.#counters.logs;
    return {
      acceptedSpans: t.accepted,
      acceptedLogs: l.accepted,
      rejectedSpans: t.rejected,
      rejectedLogs: l.rejected,
      failedSpans: t.failed,
      failedLogs: l.failed,
      droppedSpans: t.dropped,
      droppedLogs: l.dropped,
      pendingSpans: t.pending,
      pendingLogs: l.pending,
      uploadFallbacks: this.#uploadFallbacks,
      uploadedValues: this.#uploadedValues,
    };
  }

  /** The latest issues, oldest first (copies). */
  issues(): ExportIssue[] {
    return this.#issues.map((issue) => ({ ...issue }));
  }

  /** The sequence number of the latest failure issue (0 when none). */
  failureSequence(): number {
    return this.#failureSequence;
  }

  /** Failure issues (not warnings) with a sequence number above `sequence`, oldest first. */
  failuresAfter(sequence: number): ExportIssue[] {
    return this.#issues
      .filter((i) => i.sequence > sequence && FAILURE_KINDS.has(i.kind))
      .map((i) => ({ ...i }));
  }
}
