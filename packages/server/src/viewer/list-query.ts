/**
 * The trace list's filter form, read from the page's query: the read model's search filters
 * (`searchTraces`), with what a form sends (empty fields are no filter; times from a
 * `datetime-local` field are UTC). An invalid field is reported by its label, never echoed.
 * @module
 */
import { z } from 'zod';
import { MAX_SEARCH_LIMIT, type TraceSearchFilter } from '../read/search-traces.js';

/** The form's fields as given (strings), to fill the form back in. */
export type ListForm = Partial<Record<(typeof FIELDS)[number], string>>;

const FIELDS = [
  'from',
  'to',
  'service',
  'spanName',
  'sessionId',
  'userId',
  'model',
  'hasError',
  'minDurationMs',
  'attributeKey',
  'attributeValue',
  'limit',
] as const;

/** Labels of the fields, for messages. */
export const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  from: 'From (UTC)',
  to: 'To (UTC)',
  service: 'Service',
  spanName: 'Span name',
  sessionId: 'Session ID',
  userId: 'User ID',
  model: 'Model',
  hasError: 'Errors',
  minDurationMs: 'Min duration (ms)',
  attributeKey: 'Attribute key',
  attributeValue: 'Attribute value',
  limit: 'Per page',
};

/** `YYYY-MM-DDTHH:MM[:SS[.fff]]` (a datetime-local field, read as UTC) or ISO 8601 with an offset. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

function unixNano(text: string): bigint | undefined {
  const ms = Date.parse(LOCAL_TIME.test(text) ? `${text}Z` : text);
  return Number.isFinite(ms) ? BigInt(ms) * 1_000_000n : undefined;
}

const text = (max: number) => z.string().max(max);

const Schema = z.object({
  from: z.string().refine((v) => unixNano(v) !== undefined, 'must be a date and time'),
  to: z.string().refine((v) => unixNano(v) !== undefined, 'must be a date and time'),
  service: text(256),
  spanName: text(256),
  sessionId: text(4096),
  userId: text(4096),
  model: text(256),
  hasError: z.enum(['true', 'false']),
  minDurationMs: z.coerce.number().min(0).max(1e12),
  attributeKey: text(256),
  attributeValue: text(256),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT),
});

/** What the page searches with, or what is wrong with the form. */
export type ListQuery =
  | { ok: true; form: ListForm; filter: TraceSearchFilter; limit: number; after?: string }
  | { ok: false; form: ListForm; problem: string };

/** Reads the list page's query parameters. */
export function readListQuery(params: URLSearchParams): ListQuery {
  const form: ListForm = {};
  for (const field of FIELDS) {
    const value = params.get(field)?.trim();
    if (value !== undefined && value !== '') form[field] = value;
  }
  const parsed = Schema.partial().safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] as (typeof FIELDS)[number] | undefined;
    const label = field === undefined ? 'The search' : FIELD_LABELS[field];
    return { ok: false, form, problem: `${label}: ${issue?.message ?? 'invalid'}.` };
  }
  const q = parsed.data;
  if ((q.attributeKey === undefined) !== (q.attributeValue === undefined)) {
    return { ok: false, form, problem: 'Attribute key and attribute value go together: give both.' };
  }
  const filter: TraceSearchFilter = {
    ...(q.from === undefined ? {} : { fromUnixNano: unixNano(q.from)! }),
    ...(q.to === undefined ? {} : { toUnixNano: unixNano(q.to)! }),
    ...(q.service === undefined ? {} : { service: q.service }),
    ...(q.spanName === undefined ? {} : { spanName: q.spanName }),
    ...(q.sessionId === undefined ? {} : { sessionId: q.sessionId }),
    ...(q.userId === undefined ? {} : { userId: q.userId }),
    ...(q.model === undefined ? {} : { model: q.model }),
    ...(q.hasError === undefined ? {} : { hasError: q.hasError === 'true' }),
    ...(q.minDurationMs === undefined ? {} : { minDurationMs: q.minDurationMs }),
    ...(q.attributeKey === undefined || q.attributeValue === undefined
      ? {}
      : { attribute: { key: q.attributeKey, value: q.attributeValue } }),
  };
  const after = params.get('after') ?? undefined;
  return { ok: true, form, filter, limit: q.limit ?? 20, ...(after ? { after } : {}) };
}

/** The query string of `form` (and a cursor), for the pager's links. */
export function listHref(form: ListForm, after?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value !== undefined) params.set(key, value);
  if (after !== undefined) params.set('after', after);
  const query = params.toString();
  return query === '' ? '/traces' : `/traces?${query}`;
}
