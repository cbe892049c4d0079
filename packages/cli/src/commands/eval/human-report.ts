/**
 * The human-readable report of a run: the per-case table (state, failing metric and its
 * explanation, error), the totals and the run's link, then the comparison with the baseline.
 * Text that comes from cases, commands or scorers is shown on one line with control characters
 * escaped, so it cannot move the cursor or forge lines of the report.
 * @module
 */
import type { BaselineComparison } from './baseline.js';
import type { DocumentCase, EvalDocument } from './eval-document.js';

const DETAIL_CHARS = 160;

/** `text` on one line, control characters (and the rest of C1, bidi controls) escaped. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, (char) => {
    if (char === '\n' || char === '\r' || char === '\t') return ' ';
    return `\\u{${char.codePointAt(0)!.toString(16)}}`;
  });
}

/** `text` on one line, spaces folded, cut to `chars` characters (with an ellipsis). */
export function clip(text: string, chars: number): string {
  const single = oneLine(text).replace(/ {2,}/g, ' ').trim();
  return single.length <= chars ? single : `${single.slice(0, chars - 1)}…`;
}

/** `rows` as a table of left-aligned columns (the first row is the header). */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function detail(item: DocumentCase): string {
  if (item.state === 'FAIL') {
    return item.failures
      .map(
        (failure) =>
          `${failure.scorer}/${failure.metric}${failure.explanation ? `: ${failure.explanation}` : ''}`,
      )
      .join('; ');
  }
  if (item.state === 'ERROR' && item.error !== undefined) return `${item.error.type}: ${item.error.message}`;
  if (item.state === 'PENDING') {
    return `checks pending: ${item.scores
      .filter((score) => score.status === 'pending')
      .map((score) => score.scorer)
      .join(', ')}`;
  }
  return '';
}

function percent(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(value * 100 === Math.round(value * 100) ? 0 : 1)}%`;
}

function number(value: number | null): string {
  return value === null ? '–' : String(Math.round(value * 1000) / 1000);
}

function signed(value: number | null, format: (value: number | null) => string): string {
  if (value === null) return '–';
  const text = format(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text;
}

function metricValue(value: boolean | number | string | null): string {
  return value === null ? '–' : clip(String(value), 24);
}

/** The baseline part of the report. */
export function baselineReport(baseline: BaselineComparison): string {
  const { counts } = baseline;
  const lines = [
    `Compared with experiment ${baseline.experimentId}${baseline.revision === null ? '' : ` (revision ${oneLine(baseline.revision)})`}: ${counts.regressed} regressed, ${counts.improved} improved, ${counts.unchanged} unchanged, ${counts.changed} changed, ${counts.new} new, ${counts.missing} missing`,
    `Baseline: ${baseline.runUrl}`,
  ];
  const changed = baseline.cases.filter((item) => item.change !== 'unchanged');
  if (changed.length > 0) {
    lines.push(
      '',
      table([
        ['CASE', 'BEFORE', 'NOW', 'CHANGE', 'METRICS'],
        ...changed.map((item) => [
          clip(item.externalKey, 48),
          item.before ?? '–',
          item.after ?? '–',
          item.change,
          item.metrics
            .filter((metric) => metric.before !== metric.after)
            .map(
              (metric) =>
                `${metric.scorer}/${metric.metric} ${metricValue(metric.before)} → ${metricValue(metric.after)}`,
            )
            .join('; '),
        ]),
      ]),
    );
  }
  if (baseline.metrics.length > 0) {
    lines.push(
      '',
      table([
        ['METRIC', 'MEASURE', 'BEFORE', 'NOW', 'DELTA'],
        ...baseline.metrics.map((metric) => {
          const format = metric.measure === 'pass rate' ? percent : number;
          return [
            `${metric.scorer}/${metric.metric}`,
            metric.measure,
            format(metric.before),
            format(metric.after),
            signed(metric.delta, format),
          ];
        }),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The report of a run. */
export function humanReport(document: EvalDocument): string {
  const { totals } = document;
  const head = `svc eval: ${document.evalSet.slug} v${document.evalSet.version}, ${totals.cases} case${totals.cases === 1 ? '' : 's'}${document.revision === null ? '' : `, revision ${oneLine(document.revision)}`}, scored by ${document.scorers.map((scorer) => `${scorer.slug} v${scorer.version}`).join(', ')}`;
  const rows = [
    ['CASE', 'STATE', 'DETAIL'],
    ...document.cases.map((item) => [
      clip(item.externalKey, 48),
      item.state,
      clip(detail(item), DETAIL_CHARS),
    ]),
  ];
  const lines = [
    head,
    '',
    table(rows),
    '',
    `Totals: ${totals.passed} passed, ${totals.failed} failed, ${totals.errored} errored, ${totals.pending} pending, of ${totals.cases}${document.complete ? '' : ' (grading not complete: checks pending)'}`,
    `Run: ${document.runUrl}`,
  ];
  const text = `${lines.join('\n')}\n`;
  return document.baseline === undefined ? text : `${text}\n${baselineReport(document.baseline)}`;
}
