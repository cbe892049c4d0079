/**
 * The trace index: what search and outlines read instead of every span's attribute values.
 *
 * It is kept by the writer thread, never on the ingest path: spans are stored first, and the
 * writer indexes them in small steps when it has no write waiting ({@link indexStep}), or at once
 * when a reader asks for an up-to-date index. Each step reads the spans stored since the last one
 * (and the spans re-sent with the same ID since, which a trigger notes), computes their facts
 * (`spanFacts`: model, tokens, error) and terms (service, session, user, model, span name, short
 * attribute values), and recomputes the summary row of every trace it touched from all of that
 * trace's spans, so a re-sent span is never counted twice.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AnyValue, KeyValue, SpanEventRecord } from '../../otlp/model.js';
import { attributeMap, stringOf } from '../attribute-values.js';
import { spanFacts } from '../span-facts.js';
import { attributeTerm, MAX_ATTRIBUTE_TERMS_PER_SPAN, MAX_TERM_VALUE_LENGTH, TERM } from './trace-terms.js';

interface SpanRow {
  id: number;
  trace_no: number;
  span_id: string;
  name: string;
  status_code: number;
  attributes: string;
  resource_id: number;
}

const STATUS_ERROR = 2;

type Statements = Record<
  | 'state'
  | 'changeCount'
  | 'setState'
  | 'newSpans'
  | 'changedSpans'
  | 'clearChanged'
  | 'exceptions'
  | 'putFacts'
  | 'putTerm'
  | 'findName'
  | 'putName'
  | 'putNameText'
  | 'resource'
  | 'refreshTrace'
  | 'lastSpan',
  StatementSync
>;

const statementsByDb = new WeakMap<DatabaseSync, Statements>();

function statements(db: DatabaseSync): Statements {
  let prepared = statementsByDb.get(db);
  if (prepared !== undefined) return prepared;
  const prepare = (sql: string) => db.prepare(sql);
  prepared = {
    state: prepare('SELECT span_row FROM trace_index_state WHERE id = 1'),
    changeCount: prepare('SELECT COUNT(*) AS n FROM span_changes'),
    setState: prepare('UPDATE trace_index_state SET span_row = ? WHERE id = 1'),
    lastSpan: prepare('SELECT COALESCE(MAX(id), 0) AS id FROM spans'),
    newSpans: prepare(
      `SELECT id, trace_no, span_id, name, status_code, attributes, resource_id
       FROM spans WHERE id > ? ORDER BY id LIMIT ?`,
    ),
    changedSpans: prepare(
      `SELECT s.id, s.trace_no, s.span_id, s.name, s.status_code, s.attributes, s.resource_id
       FROM span_changes c JOIN spans s ON s.id = c.span_row WHERE c.span_row <= ? ORDER BY c.span_row LIMIT ?`,
    ),
    clearChanged: prepare('DELETE FROM span_changes WHERE span_row = ?'),
    exceptions: prepare(
      "SELECT attributes FROM span_events WHERE trace_no = ? AND span_id = ? AND name = 'exception' ORDER BY position",
    ),
    putFacts: prepare(
      `INSERT OR REPLACE INTO span_facts (span_row, trace_no, model, input_tokens, output_tokens, error_type, error)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    putTerm: prepare('INSERT OR IGNORE INTO trace_terms (kind, value, trace_no) VALUES (?, ?, ?)'),
    findName: prepare('SELECT id FROM span_names WHERE name = ?'),
    putName: prepare('INSERT INTO span_names (name) VALUES (?) RETURNING id'),
    putNameText: prepare('INSERT INTO span_names_text (rowid, name) VALUES (?, ?)'),
    resource: prepare('SELECT attributes FROM resources WHERE id = ?'),
    refreshTrace: prepare(
      `INSERT INTO trace_index (trace_no, start_ns, end_ns, duration_ns, root_name, span_count, error_count,
         input_tokens, output_tokens)
       SELECT ?1, MIN(s.start_time_unix_nano), MAX(s.end_time_unix_nano),
         MAX(0, MAX(s.end_time_unix_nano) - MIN(s.start_time_unix_nano)),
         COALESCE(
           (SELECT name FROM spans WHERE trace_no = ?1 AND parent_span_id = '' ORDER BY start_time_unix_nano, id LIMIT 1),
           (SELECT name FROM spans WHERE trace_no = ?1 ORDER BY start_time_unix_nano, id LIMIT 1)),
         COUNT(*), COALESCE(SUM(f.error), 0), COALESCE(SUM(f.input_tokens), 0), COALESCE(SUM(f.output_tokens), 0)
       FROM spans s LEFT JOIN span_facts f ON f.span_row = s.id WHERE s.trace_no = ?1
       ON CONFLICT (trace_no) DO UPDATE SET start_ns = excluded.start_ns, end_ns = excluded.end_ns,
         duration_ns = excluded.duration_ns, root_name = excluded.root_name, span_count = excluded.span_count,
         error_count = excluded.error_count, input_tokens = excluded.input_tokens,
         output_tokens = excluded.output_tokens`,
    ),
  };
  statementsByDb.set(db, prepared);
  return prepared;
}

function parseList(json: string): KeyValue[] {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? (list as KeyValue[]) : [];
  } catch {
    return [];
  }
}

/** The text of a scalar attribute value for a term, or `undefined` when it is not one. */
function termText(value: AnyValue): string | undefined {
  if ('stringValue' in value)
    return value.stringValue.length <= MAX_TERM_VALUE_LENGTH ? value.stringValue : undefined;
  if ('intValue' in value) return String(value.intValue);
  if ('boolValue' in value) return String(value.boolValue);
  if ('doubleValue' in value) return String(value.doubleValue);
  return undefined;
}

/** Where the index stands: how many stored spans it has not read yet, re-sent ones included. */
export function indexBacklog(db: DatabaseSync): number {
  const prepared = statements(db);
  const done = Number((prepared.state.get() as { span_row: number }).span_row);
  const last = Number((prepared.lastSpan.get() as { id: number }).id);
  const changed = Number((prepared.changeCount.get() as { n: number }).n);
  return Math.max(0, last - done) + changed;
}

/**
 * Indexes up to `maxSpans` spans (re-sent ones first, then new ones) in one transaction on `db`,
 * the writer's connection. Returns how many it read; 0 when the index is up to date.
 */
export function indexStep(db: DatabaseSync, maxSpans: number): number {
  const prepared = statements(db);
  const serviceOf = new Map<number, { service?: string; terms: string[] }>();
  db.exec('BEGIN IMMEDIATE');
  try {
    const done = Number((prepared.state.get() as { span_row: number }).span_row);
    const changed = prepared.changedSpans.all(done, maxSpans) as unknown as SpanRow[];
    const fresh =
      changed.length < maxSpans
        ? (prepared.newSpans.all(done, maxSpans - changed.length) as unknown as SpanRow[])
        : [];
    const touched = new Set<number>();
    for (const row of changed) {
      indexSpan(prepared, row, serviceOf);
      prepared.clearChanged.run(row.id);
      touched.add(row.trace_no);
    }
    let last = done;
    for (const row of fresh) {
      indexSpan(prepared, row, serviceOf);
      touched.add(row.trace_no);
      last = row.id;
    }
    // A change noted for a span the index had not read yet is read with the new spans.
    for (const traceNo of touched) prepared.refreshTrace.run(traceNo);
    if (last !== done) prepared.setState.run(last);
    db.exec('COMMIT');
    return changed.length + fresh.length;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function indexSpan(
  prepared: Statements,
  row: SpanRow,
  resources: Map<number, { service?: string; terms: string[] }>,
): void {
  const attributes = parseList(row.attributes);
  // An error's type is `error.type`, else its `exception` event's type (read for errors only).
  const exceptions: SpanEventRecord[] =
    row.status_code === STATUS_ERROR
      ? (prepared.exceptions.all(row.trace_no, row.span_id) as { attributes: string }[]).map((event) => ({
          name: 'exception',
          timeUnixNano: '0',
          attributes: parseList(event.attributes),
          droppedAttributesCount: 0,
        }))
      : [];
  const facts = spanFacts(attributes, exceptions);
  const error = row.status_code === STATUS_ERROR || facts.errorType !== undefined;
  prepared.putFacts.run(
    row.id,
    row.trace_no,
    facts.model ?? null,
    facts.inputTokens ?? null,
    facts.outputTokens ?? null,
    facts.errorType ?? null,
    error ? 1 : 0,
  );
  const term = (kind: number, value: string) => prepared.putTerm.run(kind, value, row.trace_no);
  if (facts.model !== undefined) term(TERM.model, facts.model);
  for (const id of facts.sessionIds) term(TERM.session, id);
  for (const id of facts.userIds) term(TERM.user, id);
  term(TERM.spanName, String(spanNameId(prepared, row.name)));
  let kept = 0;
  for (const { key, value } of attributes) {
    if (kept >= MAX_ATTRIBUTE_TERMS_PER_SPAN) break;
    if (key.startsWith('svc.') || value === null || typeof value !== 'object') continue;
    const text = termText(value);
    if (text === undefined) continue;
    term(TERM.attribute, attributeTerm(key, text));
    kept++;
  }
  const resource = resourceTerms(prepared, row.resource_id, resources);
  if (resource.service !== undefined) term(TERM.service, resource.service);
  for (const value of resource.terms) term(TERM.attribute, value);
}

function spanNameId(prepared: Statements, name: string): number {
  const found = prepared.findName.get(name) as { id: number } | undefined;
  if (found !== undefined) return Number(found.id);
  const { id } = prepared.putName.get(name) as { id: number };
  prepared.putNameText.run(id, name);
  return Number(id);
}

function resourceTerms(
  prepared: Statements,
  resourceId: number,
  cache: Map<number, { service?: string; terms: string[] }>,
): { service?: string; terms: string[] } {
  let terms = cache.get(resourceId);
  if (terms !== undefined) return terms;
  const text = (prepared.resource.get(resourceId) as { attributes: string } | undefined)?.attributes;
  const attributes = text === undefined ? [] : parseList(text);
  const service = stringOf(attributeMap(attributes).get('service.name'));
  terms = {
    ...(service === undefined ? {} : { service }),
    terms: attributes.slice(0, MAX_ATTRIBUTE_TERMS_PER_SPAN).flatMap(({ key, value }) => {
      const text = value !== null && typeof value === 'object' ? termText(value) : undefined;
      return text === undefined ? [] : [attributeTerm(key, text)];
    }),
  };
  cache.set(resourceId, terms);
  return terms;
}
