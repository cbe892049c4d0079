/**
 * `GET /traces/{traceId}/spans/{spanId}/value`: the whole text of a value the span's detail shows
 * only the start of (over 64 KiB): `?attribute=` a span attribute, `?event=<i>&attribute=` an
 * event's, `?log=<i>` a correlated log record's body (`&attribute=` one of its attributes).
 * Served as a plain-text attachment with the same headers as file bytes.
 * @module
 */
import type { Hono } from 'hono';
import { contentDisposition } from '../../media/content-disposition.js';
import type { RecordedValueSource } from '../../read/recorded-value.js';
import { traceIdFromEither } from '../../store/service-trace-id.js';
import { sessionOf } from '../session/session-guard.js';
import { BYTES_HEADERS } from '../viewer-headers.js';
import type { ValueWhere } from '../viewer-links.js';
import type { ViewerOptions } from '../viewer-options.js';

const INDEX = /^\d{1,6}$/;

function text(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { ...BYTES_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra },
  });
}

/** The value the query names, or `undefined` when it names none. */
function whereOf(query: Record<string, string>): ValueWhere | undefined {
  const { attribute, event, log } = query;
  if (event !== undefined)
    return INDEX.test(event) && attribute ? { event: Number(event), attribute } : undefined;
  if (log !== undefined) {
    if (!INDEX.test(log)) return undefined;
    return attribute ? { log: Number(log), attribute } : { log: Number(log) };
  }
  return attribute ? { attribute } : undefined;
}

/** The read model's name for the value at `where`. */
function sourceOf(where: ValueWhere): RecordedValueSource {
  if ('event' in where) return { record: 'event', index: where.event, attribute: where.attribute };
  if ('log' in where)
    return { record: 'log', index: where.log, ...(where.attribute ? { attribute: where.attribute } : {}) };
  return { record: 'span', attribute: where.attribute };
}

/** A file name for the value: its attribute's name (file-name-safe), or `log-body`. */
function nameOf(where: ValueWhere): string {
  const base = where.attribute ?? 'log-body';
  return `${base.replace(/[^\w.-]+/g, '_').slice(0, 200)}.txt`;
}

/** Registers the route. */
export function registerValueRoute(app: Hono, options: ViewerOptions): void {
  app.get('/traces/:traceId/spans/:spanId/value', async (c) => {
    if (sessionOf(c, options) === undefined) return text(401, 'Log in to the viewer first.\n');
    const traceId = traceIdFromEither((c.req.param('traceId') ?? '').toLowerCase());
    const spanId = c.req.param('spanId') ?? '';
    const where = whereOf(c.req.query());
    if (traceId === undefined || !/^[0-9a-f]{16}$/.test(spanId) || where === undefined) {
      return text(404, 'No such value.\n');
    }
    // The viewer's session reads content (as the span detail it shows).
    const value = await options.readModel
      .recordedValue(traceId, spanId, sourceOf(where), { includeContent: true })
      .catch(() => undefined);
    if (value?.text === undefined) return text(404, 'No such value.\n');
    return text(200, value.text, { 'content-disposition': contentDisposition(nameOf(where)) });
  });
}
