/**
 * The viewer's pages: `/traces` (the list) and `/traces/{traceId}` (`?span=` selects a span,
 * `?after=` pages through a trace of more than 10,000 spans, `?logs=` through the selected span's
 * log records when it has more than 200), and the detail fragment
 * `/traces/{traceId}/spans/{spanId}` the page's script swaps in when another span is selected.
 * @module
 */
import type { Hono } from 'hono';
import { ApiError } from '../../http/api-error.js';
import type { SpanDetail } from '../../read/read-model-types.js';
import { traceIdFromEither } from '../../store/service-trace-id.js';
import { readListQuery } from '../list-query.js';
import { SpanDetailView } from '../pages/span-detail-view.js';
import { TraceListPage } from '../pages/trace-list-page.js';
import { TracePage } from '../pages/trace-page.js';
import { sessionOf } from '../session/session-guard.js';
import { spanTree } from '../span-tree.js';
import type { ViewerAssets } from '../viewer-assets.js';
import { pageHeaders } from '../viewer-headers.js';
import { spanLogsHref } from '../viewer-links.js';
import type { ViewerOptions } from '../viewer-options.js';
import { frameOf, page } from './render-page.js';
import { notFoundPage, withSession } from './session-page.js';

const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * The first log record of the selected span to show (`?logs=`, its index in the span's
 * time-ordered list); anything but decimal digits shows the first page, as `?after=` does.
 */
function logsFromOf(url: URL): number {
  const text = url.searchParams.get('logs');
  return text !== null && /^\d{1,9}$/.test(text) ? Number(text) : 0;
}

/** Registers the pages and the detail fragment. */
export function registerTraceRoutes(app: Hono, options: ViewerOptions, assets: ViewerAssets): void {
  const { readModel } = options;

  app.get('/', (c) => c.redirect('/traces', 302));

  app.get(
    '/traces',
    pageHeaders,
    withSession(options, assets, async (c) => {
      const query = readListQuery(new URL(c.req.url).searchParams);
      const frame = frameOf(c, assets, true);
      if (!query.ok) {
        return page(
          c,
          <TraceListPage frame={frame} form={query.form} problem={query.problem} later={false} />,
          400,
        );
      }
      try {
        const found = await readModel.searchTraces(query.filter, {
          limit: query.limit,
          ...(query.after === undefined ? {} : { after: query.after }),
        });
        return page(
          c,
          <TraceListPage frame={frame} form={query.form} page={found} later={query.after !== undefined} />,
        );
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
        return page(
          c,
          <TraceListPage
            frame={frame}
            form={query.form}
            problem={error.message}
            later={query.after !== undefined}
          />,
          400,
        );
      }
    }),
  );

  app.get(
    '/traces/:traceId',
    pageHeaders,
    withSession(options, assets, async (c) => {
      const given = c.req.param('traceId') ?? '';
      const traceId = traceIdFromEither(given.toLowerCase());
      if (traceId === undefined) {
        return notFoundPage(
          c,
          assets,
          'This is not a trace ID: a trace ID is 32 hex characters (or the service trace ID, a UUID).',
        );
      }
      const url = new URL(c.req.url);
      if (traceId !== given) return c.redirect(`/traces/${traceId}${url.search}`, 301);
      const afterText = url.searchParams.get('after');
      const offset = afterText !== null && /^\d{1,9}$/.test(afterText) ? Number(afterText) : 0;
      let outline: Awaited<ReturnType<typeof readModel.traceOutline>>;
      try {
        outline = await readModel.traceOutline(traceId, offset === 0 ? {} : { after: offset });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return notFoundPage(c, assets, error.message);
        throw error;
      }
      const rows = spanTree(outline.spans);
      const asked = url.searchParams.get('span') ?? undefined;
      const selectedId = asked ?? rows[0]?.span.spanId;
      let detail: SpanDetail | undefined;
      let detailProblem: string | undefined;
      if (selectedId !== undefined) {
        if (!SPAN_ID.test(selectedId)) {
          detailProblem = 'The span in the address is not a span ID (16 lowercase hex characters).';
        } else {
          try {
            detail = await readModel.spanDetail(traceId, selectedId, {
              includeContent: true,
              logsFrom: logsFromOf(url),
            });
          } catch (error) {
            if (!(error instanceof ApiError) || error.status !== 404) throw error;
            detailProblem = 'No span of this ID is stored in this trace.';
          }
        }
      } else {
        detailProblem = 'No span of this trace is stored (only log records).';
      }
      return page(
        c,
        <TracePage
          frame={frameOf(c, assets, true)}
          outline={outline}
          rows={rows}
          offset={offset}
          selectedId={selectedId}
          detail={detail}
          {...(detailProblem === undefined ? {} : { detailProblem })}
        />,
      );
    }),
  );

  // The selected span's detail alone, for the page's script. A browser opening it as a page
  // (a copied link) is sent to the trace page with that span selected.
  app.get('/traces/:traceId/spans/:spanId', pageHeaders, async (c) => {
    const traceId = traceIdFromEither((c.req.param('traceId') ?? '').toLowerCase());
    const spanId = c.req.param('spanId') ?? '';
    if (traceId === undefined || !SPAN_ID.test(spanId)) return c.text('Not a trace or span ID.', 404);
    const logsFrom = logsFromOf(new URL(c.req.url));
    if (c.req.header('sec-fetch-dest') === 'document')
      return c.redirect(spanLogsHref(traceId, spanId, logsFrom), 303);
    if (sessionOf(c, options) === undefined)
      return c.text('Log in again: the viewer session has ended.', 401);
    try {
      const detail = await readModel.spanDetail(traceId, spanId, { includeContent: true, logsFrom });
      c.header('cache-control', 'no-store');
      return c.html(<SpanDetailView detail={detail} />);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return c.text(error.message, 404);
      throw error;
    }
  });
}
