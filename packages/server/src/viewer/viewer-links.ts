/**
 * The viewer's URLs, in one place: pages, a span's detail fragment, a file's bytes, the whole
 * text of a value. Every path segment and query value is encoded.
 * @module
 */

/** The trace page, selecting `spanId` (its permalink), on the outline page starting at `after`. */
export function tracePageHref(traceId: string, spanId?: string, after?: string): string {
  const params = new URLSearchParams();
  if (after !== undefined) params.set('after', after);
  if (spanId !== undefined) params.set('span', spanId);
  const query = params.toString();
  return `/traces/${encodeURIComponent(traceId)}${query === '' ? '' : `?${query}`}`;
}

/**
 * The trace page selecting `spanId` with the page of its correlated log records starting at record
 * `logsFrom` (in the span's time-ordered list; 0, the first page, is the span's own permalink).
 */
export function spanLogsHref(traceId: string, spanId: string, logsFrom: number): string {
  const href = tracePageHref(traceId, spanId);
  return logsFrom === 0 ? href : `${href}&${new URLSearchParams({ logs: String(logsFrom) })}`;
}

/** The prefix of a span's detail fragment URL (the span ID follows). */
export function fragmentPrefix(traceId: string): string {
  return `/traces/${encodeURIComponent(traceId)}/spans/`;
}

/** A file's bytes, found through `spanId` (inline files are read from that span's records). */
export function fileHref(
  traceId: string,
  sha256: string,
  spanId: string,
  options: { download?: boolean; wav?: boolean } = {},
): string {
  const params = new URLSearchParams({ span: spanId });
  if (options.download) params.set('download', '1');
  return `/traces/${encodeURIComponent(traceId)}/files/${encodeURIComponent(sha256)}${options.wav ? '/wav' : ''}?${params}`;
}

/**
 * Which value of a span: one of its attributes, an attribute of its event at `event`, or the body
 * (or an attribute) of its correlated log record at `log` (the index in the span's whole
 * time-ordered list of log records, whichever page of them shows it).
 */
export type ValueWhere =
  | { attribute: string }
  | { event: number; attribute: string }
  | { log: number; attribute?: string };

/** The whole text of a value of a span (an attribute, an event's attribute, a log body or attribute). */
export function valueHref(traceId: string, spanId: string, where: ValueWhere): string {
  const params = new URLSearchParams();
  if ('event' in where) params.set('event', String(where.event));
  if ('log' in where) params.set('log', String(where.log));
  if (where.attribute !== undefined) params.set('attribute', where.attribute);
  return `/traces/${encodeURIComponent(traceId)}/spans/${encodeURIComponent(spanId)}/value?${params}`;
}

/** An experiment's page: compared with `baseline` when given, its cases from index `from`. */
export function experimentPageHref(experimentId: string, options: { baseline?: string; from?: number } = {}) {
  const params = new URLSearchParams();
  if (options.baseline !== undefined) params.set('baseline', options.baseline);
  if (options.from !== undefined && options.from > 0) params.set('from', String(options.from));
  const query = params.toString();
  return `/experiments/${encodeURIComponent(experimentId)}${query === '' ? '' : `?${query}`}`;
}

/** The experiment list, from position `before` (a later page) when given. */
export function experimentListHref(before?: number): string {
  return before === undefined ? '/experiments' : `/experiments?before=${before}`;
}
