/**
 * Test support: an output stream that keeps what is written and lets a test wait for a line.
 * @module
 */
import type { OutputStream } from '../io.js';

/** Collects written text; {@link CapturedOutput.waitFor} resolves once a pattern matches it. */
export class CapturedOutput implements OutputStream {
  #text = '';
  readonly #onWrite = new Set<() => void>();

  /** Everything written so far. */
  get text(): string {
    return this.#text;
  }

  write(text: string): boolean {
    this.#text += text;
    for (const check of this.#onWrite) check();
    return true;
  }

  /**
   * Resolves to the first match of `pattern` in the text; rejects after `timeoutMs`, by default
   * just under the tests' own 30 s timeout, so that only output that never comes fails the test
   * (with the text seen so far), never a slow start on a loaded machine.
   */
  waitFor(pattern: RegExp, timeoutMs = 28_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(this.#text);
        if (match === null) return;
        done();
        resolve(match);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no output matched ${pattern} within ${timeoutMs} ms; got:\n${this.#text}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.#onWrite.delete(check);
      };
      this.#onWrite.add(check);
      check();
    });
  }
}
