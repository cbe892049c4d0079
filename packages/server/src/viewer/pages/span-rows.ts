/**
 * The rows of the trace page's span tree and waterfall, one `<a>` per span, written with Hono's
 * `html` template (every interpolated value is escaped, as in `hono/jsx`). Rows are kept small —
 * a 10,000-span trace is one page — so they carry no attributes beyond the link, a depth class,
 * the name, the duration and a bar whose position and width are classes of the stylesheet
 * (`viewer.css` has 200 steps of each: inline styles are refused by the page's CSP).
 * @module
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { formatDuration } from '../format.js';
import type { TreeRow } from '../span-tree.js';

/** Steps of the waterfall: bar positions and widths are multiples of 1/200 of the trace. */
export const BAR_STEPS = 200;

/** Indentation stops growing past this depth (the depth is still in the row's title). */
export const MAX_INDENT = 32;

/** The trace's time range, as BigInt nanoseconds, for the bars. */
export interface Timeline {
  startNano: bigint;
  endNano: bigint;
}

function barClasses(row: TreeRow, timeline: Timeline): string {
  const total = Number(timeline.endNano - timeline.startNano);
  if (!(total > 0)) return 'l0 w200';
  const start = Number(BigInt(row.span.startTimeUnixNano) - timeline.startNano);
  const left = Math.min(BAR_STEPS - 1, Math.max(0, Math.floor((start / total) * BAR_STEPS)));
  const width = Math.round(((row.span.durationMs * 1e6) / total) * BAR_STEPS);
  return `l${left} w${Math.min(BAR_STEPS - left, Math.max(1, width))}`;
}

/**
 * The rows: `hrefOf(spanId)` is each row's link (the page's permalink with `?span=`),
 * `selected` the selected span's ID.
 */
export function spanRows(
  rows: readonly TreeRow[],
  timeline: Timeline,
  selected: string | undefined,
  hrefOf: (spanId: string) => string,
): HtmlEscapedString {
  const parts = rows.map((row) => {
    const { span } = row;
    const classes = `r d${Math.min(row.depth, MAX_INDENT)}${span.error ? ' e' : ''}${span.spanId === selected ? ' s' : ''}`;
    const current = span.spanId === selected ? 'page' : undefined;
    const model = span.model === undefined ? '' : html`<em>${span.model}</em>`;
    const files = span.fileCount > 0 ? html`<u title="files">${span.fileCount}</u>` : '';
    return html`<a href="${hrefOf(span.spanId)}" class="${classes}" data-d="${row.depth}"${current === undefined ? '' : html` aria-current="${current}"`}><span><b>${span.name}</b>${model}${files}</span><code>${formatDuration(span.durationMs)}</code><s><i class="${barClasses(row, timeline)}"></i></s></a>`;
  });
  return html`${parts}` as HtmlEscapedString;
}
