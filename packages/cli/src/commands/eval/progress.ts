/**
 * Progress of a run on stderr: on a terminal, one line rewritten in place (cases done / total,
 * passes, failures, errors, elapsed time); elsewhere (CI logs, a pipe), a plain line per case.
 * @module
 */
import { performance } from 'node:perf_hooks';
import type { OutputStream } from '../../io.js';
import { oneLine } from './human-report.js';

/** Per-case states the progress display knows while cases run. */
export type ProgressState = 'passed' | 'failed' | 'errored' | 'done';

function seconds(millis: number): string {
  return `${(millis / 1000).toFixed(millis < 10_000 ? 1 : 0)}s`;
}

/** The progress display of one run. */
export class Progress {
  readonly #stream: OutputStream;
  readonly #tty: boolean;
  readonly #started = performance.now();
  readonly #counts = { done: 0, passed: 0, failed: 0, errored: 0 };
  readonly #unit: string;
  #total = 0;
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  /** `unit`: what is counted (`cases`; a scenario run with several trials counts `trials`). */
  constructor(stream: OutputStream, unit = 'cases') {
    this.#stream = stream;
    this.#tty = stream.isTTY === true;
    this.#unit = unit;
  }

  /** Starts the display for `total` cases, `done` of which are done already (a resumed run). */
  start(total: number, done: number): void {
    this.#total = total;
    this.#counts.done = done;
    if (this.#tty) {
      this.#timer = setInterval(() => this.#draw(), 1000);
      this.#timer.unref();
      this.#draw();
    } else if (done > 0) {
      this.#stream.write(`svc eval: resuming, ${done} of ${total} ${this.#unit} done before\n`);
    }
  }

  /** A case ended (`detail`: the failing metric, the error type, …). */
  caseEnded(caseKey: string, state: ProgressState, detail = ''): void {
    this.#counts.done += 1;
    if (state !== 'done') this.#counts[state] += 1;
    if (this.#tty) {
      this.#draw();
      return;
    }
    const label = { passed: 'PASS', failed: 'FAIL', errored: 'ERROR', done: 'done' }[state];
    // The key and detail come from the eval set and scorers: one line, controls escaped.
    this.#stream.write(
      `[${this.#counts.done}/${this.#total}] ${oneLine(caseKey)} ${label}${detail === '' ? '' : ` (${oneLine(detail)})`}\n`,
    );
  }

  /** A line about the run (waiting for grading, …). */
  note(text: string): void {
    if (this.#tty && this.#shown) this.#stream.write('\r\u001b[K');
    this.#stream.write(`${text}\n`);
    this.#shown = false;
    if (this.#tty && this.#timer !== undefined) this.#draw();
  }

  /** Ends the display. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#tty && this.#shown) this.#stream.write('\r\u001b[K');
    this.#shown = false;
  }

  #draw(): void {
    const { done, passed, failed, errored } = this.#counts;
    const elapsed = seconds(performance.now() - this.#started);
    this.#stream.write(
      `\r\u001b[K${done}/${this.#total} ${this.#unit} · ${passed} passed · ${failed} failed · ${errored} errors · ${elapsed}`,
    );
    this.#shown = true;
  }
}
