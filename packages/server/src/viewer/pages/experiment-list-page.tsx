/**
 * `/experiments`: the project's experiments, newest first, each with its eval set and version, the
 * revision `svc eval` recorded, its cases and whether it is finished.
 * @module
 */
import type { Experiment } from '../../evals/experiments/experiment-store.js';
import { formatCount, formatTime } from '../format.js';
import { experimentListHref, experimentPageHref } from '../viewer-links.js';
import { Layout, type PageFrame } from './layout.js';

/** A row of the list. */
export interface ExperimentRow {
  experiment: Experiment;
  evalSet: string;
  version: number;
  revision: string | null;
}

/** The list page. */
export function ExperimentListPage(props: {
  frame: PageFrame;
  rows: ExperimentRow[];
  /** The position of the next page, when there is one. */
  before: number | null;
  /** Whether this is a later page. */
  later: boolean;
}) {
  return (
    <Layout frame={props.frame} title="Experiments" search={false}>
      <h1>Experiments</h1>
      <p class="muted">Newest first. Times are UTC.</p>
      {props.rows.length === 0 ? (
        <p class="notice">
          {props.later ? 'No more experiments.' : 'No experiment yet: run one with svc eval --set.'}
        </p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th>Created (UTC)</th>
              <th>Experiment</th>
              <th>Eval set</th>
              <th>Revision</th>
              <th class="num">Cases</th>
              <th>Finished</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map(({ experiment, evalSet, version, revision }) => (
              <tr>
                <td>{formatTime(experiment.createdAt)}</td>
                <td class="name">
                  <a href={experimentPageHref(experiment.id)}>{experiment.name}</a>
                  <div class="muted">
                    <code>{experiment.id}</code>
                  </div>
                </td>
                <td>
                  {evalSet} v{version}
                </td>
                <td>{revision === null ? '—' : <code>{revision}</code>}</td>
                <td class="num">{formatCount(experiment.caseCount)}</td>
                <td>{experiment.finishedAt === null ? 'open' : formatTime(experiment.finishedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {props.later ? <a href={experimentListHref()}>« Newest</a> : null}
        {props.before === null ? null : <a href={experimentListHref(props.before)}>Older »</a>}
      </nav>
    </Layout>
  );
}
