/**
 * Progress on stderr: on a terminal, one line rewritten in place with the cases done / total,
 * passes, failures, errors and the elapsed time; elsewhere, one plain line per case. Case keys and
 * details come from the eval set: shown on one line, control characters escaped.
 */
import { describe, expect, it } from 'vitest';
import { CapturedOutput } from '../../testing/captured-output.js';
import { Progress } from './progress.js';

class Terminal extends CapturedOutput {
  readonly isTTY = true;
  readonly columns = 100;
}

const CLEAR = '\r\u001b[K';

describe('Progress', () => {
  it('rewrites one status line in place on a terminal', () => {
    const terminal = new Terminal();
    const progress = new Progress(terminal);
    progress.start(3, 1);
    progress.caseEnded('a', 'passed');
    progress.caseEnded('b', 'failed', 'mentions/includes');
    progress.note('Waiting for the judges…');
    progress.stop();
    const draws = terminal.text.split(CLEAR).filter((part) => part !== '');
    expect(draws[0]).toMatch(/^1\/3 cases · 0 passed · 0 failed · 0 errors · \d+\.\ds$/);
    expect(draws[1]).toMatch(/^2\/3 cases · 1 passed · 0 failed · 0 errors · \d+\.\ds$/);
    expect(draws[2]).toMatch(/^3\/3 cases · 1 passed · 1 failed · 0 errors · \d+\.\ds$/);
    expect(draws[3]).toBe('Waiting for the judges…\n');
    // No line per case on a terminal, and the status line is cleared at the end.
    expect(terminal.text).not.toContain('[2/3]');
    expect(terminal.text.endsWith(CLEAR)).toBe(true);
  });

  it('writes a plain line per case elsewhere, with the failing metric or error', () => {
    const log = new CapturedOutput();
    const progress = new Progress(log);
    progress.start(3, 0);
    progress.caseEnded('a', 'passed');
    progress.caseEnded('b', 'failed', 'mentions/includes');
    progress.caseEnded('c', 'errored', 'CommandTimedOut');
    progress.stop();
    expect(log.text).toBe(
      '[1/3] a PASS\n[2/3] b FAIL (mentions/includes)\n[3/3] c ERROR (CommandTimedOut)\n',
    );
  });

  it('says how many cases a resumed run had done', () => {
    const log = new CapturedOutput();
    new Progress(log).start(5, 2);
    expect(log.text).toBe('svc eval: resuming, 2 of 5 cases done before\n');
  });

  it('counts trials when told to (a scenario run with several trials)', () => {
    const terminal = new Terminal();
    const progress = new Progress(terminal, 'trials');
    progress.start(6, 0);
    progress.stop();
    expect(terminal.text.split(CLEAR)[1]).toMatch(/^0\/6 trials · 0 passed/);
    const log = new CapturedOutput();
    new Progress(log, 'trials').start(6, 4);
    expect(log.text).toBe('svc eval: resuming, 4 of 6 trials done before\n');
  });

  it('escapes control characters of case keys and details', () => {
    const log = new CapturedOutput();
    const progress = new Progress(log);
    progress.start(1, 0);
    progress.caseEnded('evil\u001b[2J\nkey', 'errored', 'line\rbreak');
    expect(log.text).toBe('[1/1] evil\\u{1b}[2J key ERROR (line break)\n');
  });
});
