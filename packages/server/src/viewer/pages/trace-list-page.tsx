/**
 * `/traces`: the trace list, newest first, with the search filters as a form and cursor pages.
 * @module
 */
import type { TracePage } from '../../read/search-traces.js';
import { formatCount, formatDuration, formatTime } from '../format.js';
import { FIELD_LABELS, type ListForm, listHref } from '../list-query.js';
import { Layout, type PageFrame } from './layout.js';

function Field(props: {
  form: ListForm;
  name: keyof ListForm;
  type?: string;
  placeholder?: string;
  id?: string;
}) {
  return (
    <label>
      {FIELD_LABELS[props.name]}
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.form[props.name] ?? ''}
        placeholder={props.placeholder}
        step={props.type === 'datetime-local' ? '1' : undefined}
      />
    </label>
  );
}

function Filters(props: { form: ListForm }) {
  const { form } = props;
  const hasError = form.hasError ?? '';
  const limit = form.limit ?? '20';
  return (
    <form class="filters" method="get" action="/traces">
      <Field form={form} name="spanName" id="q" placeholder="part of a span name (press /)" />
      <Field form={form} name="service" placeholder="service.name" />
      <Field form={form} name="model" />
      <Field form={form} name="sessionId" />
      <Field form={form} name="userId" />
      <label>
        {FIELD_LABELS.hasError}
        <select name="hasError">
          <option value="" selected={hasError === ''}>
            any
          </option>
          <option value="true" selected={hasError === 'true'}>
            with errors
          </option>
          <option value="false" selected={hasError === 'false'}>
            without errors
          </option>
        </select>
      </label>
      <Field form={form} name="minDurationMs" type="number" />
      <Field form={form} name="from" type="datetime-local" placeholder="UTC" />
      <Field form={form} name="to" type="datetime-local" placeholder="UTC" />
      <Field form={form} name="attributeKey" />
      <Field form={form} name="attributeValue" />
      <label>
        {FIELD_LABELS.limit}
        <select name="limit">
          {['20', '50', '100'].map((n) => (
            <option value={n} selected={limit === n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <div class="actions">
        <button class="primary" type="submit">
          Search
        </button>
        <a href="/traces">Clear</a>
      </div>
    </form>
  );
}

function people(values: readonly string[]): string {
  if (values.length <= 2) return values.join(', ');
  return `${values.slice(0, 2).join(', ')} +${values.length - 2}`;
}

/** The list page: the form, and the page of traces or what is wrong with the form. */
export function TraceListPage(props: {
  frame: PageFrame;
  form: ListForm;
  page?: TracePage;
  problem?: string;
  /** Whether this is a later page (`after` given). */
  later: boolean;
}) {
  const { page } = props;
  return (
    <Layout frame={props.frame} title="Traces" search={false}>
      <h1>Traces</h1>
      <p class="muted">Newest first. Times are UTC.</p>
      <Filters form={props.form} />
      {props.problem === undefined ? null : (
        <p class="problem" role="alert">
          {props.problem}
        </p>
      )}
      {page === undefined ? null : page.items.length === 0 ? (
        <p class="notice">{props.later ? 'No more traces.' : 'No trace matches these filters.'}</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th>Time (UTC)</th>
              <th>Root span</th>
              <th class="num">Duration</th>
              <th class="num">Spans</th>
              <th class="num">Errors</th>
              <th class="num">Tokens in / out</th>
              <th>Session</th>
              <th>User</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((item) => (
              <tr class={item.errorCount > 0 ? 'err' : undefined}>
                <td>{formatTime(item.startTime)}</td>
                <td class="name">
                  <a href={`/traces/${item.traceId}`}>{item.rootName ?? '(no root span)'}</a>
                  <div class="muted">
                    <code>{item.traceId}</code>
                  </div>
                </td>
                <td class="num">{formatDuration(item.durationMs)}</td>
                <td class="num">{formatCount(item.spanCount)}</td>
                <td class="num">
                  {item.errorCount > 0 ? <span class="badge err">{item.errorCount}</span> : '0'}
                </td>
                <td class="num">
                  {formatCount(item.inputTokens)} / {formatCount(item.outputTokens)}
                </td>
                <td>{people(item.sessions)}</td>
                <td>{people(item.users)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {props.later ? <a href={listHref(props.form)}>« First page</a> : null}
        {page?.nextCursor ? <a href={listHref(props.form, page.nextCursor)}>Next page »</a> : null}
      </nav>
    </Layout>
  );
}
