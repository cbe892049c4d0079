/**
 * `/traces/{traceId}`: the trace's summary, its spans as a tree with a waterfall (one compact row
 * each, up to 10,000 a page), and the selected span's detail (`?span=`; the URL is the permalink).
 * @module
 */
import type { SpanDetail, TraceOutline } from '../../read/read-model-types.js';
import { MAX_OUTLINE_SPANS } from '../../read/trace-outline.js';
import { formatCount, formatDuration, formatTime } from '../format.js';
import type { TreeRow } from '../span-tree.js';
import { fragmentPrefix, tracePageHref } from '../viewer-links.js';
import { Layout, type PageFrame } from './layout.js';
import { SpanDetailView } from './span-detail-view.js';
import { spanRows } from './span-rows.js';

function Fact(props: { label: string; children: unknown }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function list(values: readonly string[]): string {
  return values.length === 0 ? '—' : values.join(', ');
}

/** What the trace page shows. */
export interface TracePageProps {
  frame: PageFrame;
  outline: TraceOutline;
  rows: readonly TreeRow[];
  /** The outline page's first span (its `after` cursor), `0` for the first page. */
  offset: number;
  selectedId: string | undefined;
  detail: SpanDetail | undefined;
  /** Why there is no detail, when a selected span could not be read. */
  detailProblem?: string;
}

/** The trace page. */
export function TracePage(props: TracePageProps) {
  const { outline, offset } = props;
  const { summary } = outline;
  const after = offset === 0 ? undefined : String(offset);
  const start = BigInt(summary.startTimeUnixNano ?? '0');
  const end = BigInt(summary.endTimeUnixNano ?? '0');
  const last = offset + outline.spans.length;
  const partial = offset > 0 || outline.nextCursor !== null;
  const previous = offset === 0 ? undefined : Math.max(0, offset - MAX_OUTLINE_SPANS);
  const tokens = summary.models
    .map((m) => `${m.model}: ${formatCount(m.inputTokens)} in / ${formatCount(m.outputTokens)} out`)
    .join('; ');
  return (
    <Layout frame={props.frame} title={summary.rootName ?? summary.traceId} wide>
      <div class="trace">
        <section class="summary">
          <h1>{summary.rootName ?? '(no root span)'}</h1>
          <dl class="facts">
            <Fact label="Trace">
              <code>{summary.traceId}</code>
            </Fact>
            <Fact label="Start">{formatTime(summary.startTime)}</Fact>
            <Fact label="Duration">{formatDuration(summary.durationMs)}</Fact>
            <Fact label="Spans">{formatCount(summary.spanCount)}</Fact>
            <Fact label="Errors">
              {summary.errorCount > 0 ? <span class="badge err">{summary.errorCount}</span> : '0'}
            </Fact>
            <Fact label="Logs">{formatCount(summary.logCount)}</Fact>
            {tokens === '' ? null : <Fact label="Tokens">{tokens}</Fact>}
            <Fact label="Sessions">{list(summary.sessions)}</Fact>
            <Fact label="Users">{list(summary.users)}</Fact>
            <Fact label="Services">{list(summary.services)}</Fact>
          </dl>
          {partial ? (
            <p class="notice">
              Showing spans {formatCount(offset + 1)}–{formatCount(last)} of {formatCount(summary.spanCount)}{' '}
              (in start order; a page holds at most {formatCount(MAX_OUTLINE_SPANS)}).{' '}
              {previous === undefined ? null : (
                <a
                  href={tracePageHref(
                    summary.traceId,
                    undefined,
                    previous === 0 ? undefined : String(previous),
                  )}
                >
                  « Previous spans
                </a>
              )}{' '}
              {outline.nextCursor === null ? null : (
                <a href={tracePageHref(summary.traceId, undefined, outline.nextCursor)}>
                  Next {formatCount(Math.min(MAX_OUTLINE_SPANS, summary.spanCount - last))} spans »
                </a>
              )}
            </p>
          ) : null}
        </section>
        <div class="split">
          <nav id="tree" aria-label="Spans">
            <div class="head">
              <span>Span</span>
              <span>Duration</span>
              <span>Timeline ({formatDuration(summary.durationMs)})</span>
            </div>
            {spanRows(props.rows, { startNano: start, endNano: end }, props.selectedId, (spanId) =>
              // Relative to the page's own URL (`/traces/{traceId}`): 40 bytes less on each of 10,000 rows.
              after === undefined ? `?span=${spanId}` : `?after=${after}&span=${spanId}`,
            )}
          </nav>
          <section id="detail" aria-label="Selected span" data-fragment={fragmentPrefix(summary.traceId)}>
            {props.detail === undefined ? (
              <p class="problem">{props.detailProblem ?? 'No span selected.'}</p>
            ) : (
              <SpanDetailView detail={props.detail} />
            )}
          </section>
        </div>
      </div>
    </Layout>
  );
}
