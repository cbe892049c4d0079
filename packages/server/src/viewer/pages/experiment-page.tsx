/**
 * `/experiments/{id}`: an experiment's cases with their state (PASS, FAIL, ERROR, PENDING; STARTED
 * and NOT RUN while a run is under way or stopped), each scorer's metrics and explanation, the
 * case's output files in place, a link to the case's trace; the revision; and, for a run compared
 * with a baseline (`svc eval --baseline`, or `?baseline=`), the comparison. Everything recorded
 * (keys, explanations, errors, names) is text: escaped, never markup.
 * @module
 */

import type { CaseFiles } from '../experiments/case-files.js';
import type { CaseOutcome, CaseScore, CaseState } from '../experiments/case-outcomes.js';
import { CHANGES, type ExperimentComparison } from '../experiments/experiment-comparison.js';
import type { ExperimentScorer, ExperimentView } from '../experiments/read-experiment.js';
import { formatCount, formatTime } from '../format.js';
import { experimentPageHref, tracePageHref } from '../viewer-links.js';
import { FileInPlace } from './file-view.js';
import { Layout, type PageFrame } from './layout.js';

/** The baseline a page compares with: the comparison, or why there is none. */
export type BaselineView =
  | { experimentId: string; name: string; revision: string | null; comparison: ExperimentComparison }
  | { experimentId: string; problem: string };

const STATE_CLASSES: Record<CaseState, string> = {
  PASS: 'pass',
  FAIL: 'fail',
  ERROR: 'error',
  PENDING: 'pending',
  STARTED: 'started',
  'NOT RUN': 'not-run',
};

const STATE_HINTS: Record<CaseState, string> = {
  PASS: 'Every metric passed.',
  FAIL: 'A metric did not pass.',
  ERROR: 'The case errored: its execution, a scorer or a hosted judge failed.',
  PENDING: 'Checks pending: a scorer has no result yet.',
  STARTED: 'Its execution started without an outcome: still running, or its runner stopped while it ran.',
  'NOT RUN': 'No execution yet.',
};

function Verdict(props: { state: CaseState }) {
  return (
    <span class={`verdict ${STATE_CLASSES[props.state]}`} title={STATE_HINTS[props.state]}>
      {props.state}
    </span>
  );
}

function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 1000) / 10}%`;
}

function plain(value: number | null): string {
  return value === null ? '—' : String(Math.round(value * 1000) / 1000);
}

function signed(value: number | null, format: (value: number | null) => string): string {
  if (value === null) return '—';
  const text = format(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

function Score(props: { score: CaseScore; scorer: ExperimentScorer | undefined }) {
  const { score } = props;
  const name =
    props.scorer === undefined ? score.scorerVersionId : `${props.scorer.slug} v${props.scorer.number}`;
  return (
    <div class={`score ${score.status}`}>
      <div>
        <b>{name}</b>{' '}
        {score.status === 'pending' ? (
          <span class="muted">
            checks pending{score.judgeJob === undefined ? '' : ` (judge job ${score.judgeJob.state})`}
          </span>
        ) : score.status === 'skipped' ? (
          <span class="muted">skipped</span>
        ) : null}
        {score.metrics.map((metric) => (
          <span
            class={`metric${metric.passed === true ? ' pass' : metric.passed === false ? ' fail' : ''}`}
            title={metric.passed === undefined ? undefined : metric.passed ? 'passed' : 'did not pass'}
          >
            {metric.name} = {String(metric.value)}
          </span>
        ))}
      </div>
      {score.error === undefined ? null : (
        <div class="why">
          {score.error.type}
          {score.error.message === undefined ? '' : `: ${score.error.message}`}
        </div>
      )}
      {score.explanation === undefined ? null : <p class="explanation">{score.explanation}</p>}
    </div>
  );
}

function Files(props: { traceId: string | null; files: CaseFiles | undefined }) {
  const { traceId, files } = props;
  if (traceId === null || files === undefined) return <span class="muted">—</span>;
  if ('problem' in files) return <span class="muted">{files.problem}</span>;
  if (files.files.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="plain">
      {files.files.map((file) => (
        <li>
          <FileInPlace file={file} place={{ traceId, spanId: files.spanId }} />
        </li>
      ))}
    </ul>
  );
}

function CaseRow(props: {
  outcome: CaseOutcome;
  scorers: Map<string, ExperimentScorer>;
  files: CaseFiles | undefined;
}) {
  const { outcome } = props;
  const execution = outcome.execution;
  const traceId = execution?.traceExternalId ?? null;
  return (
    <tr class={`case ${STATE_CLASSES[outcome.state]}`} data-case-key={outcome.externalKey}>
      <td class="name">
        <span class="key">{outcome.externalKey}</span>
        {execution === null ? null : <div class="muted">attempt {execution.attempt}</div>}
      </td>
      <td>
        <Verdict state={outcome.state} />
        {outcome.error === undefined ? null : (
          <div class="why">
            {outcome.error.type}
            {outcome.error.message === undefined ? '' : `: ${outcome.error.message}`}
          </div>
        )}
      </td>
      <td>
        {outcome.scores.map((score) => (
          <Score score={score} scorer={props.scorers.get(score.scorerVersionId)} />
        ))}
      </td>
      <td class="files">
        <Files traceId={traceId} files={props.files} />
      </td>
      <td>{traceId === null ? <span class="muted">—</span> : <a href={tracePageHref(traceId)}>Trace</a>}</td>
    </tr>
  );
}

function Comparison(props: { baseline: BaselineView; experimentId: string }) {
  const { baseline } = props;
  if ('problem' in baseline) {
    return (
      <section class="comparison">
        <h2>Comparison</h2>
        <p class="problem" role="alert">
          {baseline.problem}
        </p>
      </section>
    );
  }
  const { comparison } = baseline;
  const changed = comparison.cases.filter((item) => item.change !== 'unchanged');
  return (
    <section class="comparison">
      <h2>
        Compared with <a href={experimentPageHref(baseline.experimentId)}>{baseline.name}</a>
        {baseline.revision === null ? null : (
          <>
            {' '}
            (revision <code>{baseline.revision}</code>)
          </>
        )}
      </h2>
      <p class="counts">
        {CHANGES.map((change) => (
          <span class={`change ${change}`}>
            {formatCount(comparison.counts[change])} {change}
          </span>
        ))}
      </p>
      {changed.length === 0 ? (
        <p class="notice">Every case is in the same state as in the baseline.</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th>Case</th>
              <th>Before</th>
              <th>Now</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((item) => (
              <tr class={`change ${item.change}`}>
                <td class="name">{item.externalKey}</td>
                <td>{item.before === null ? '—' : <Verdict state={item.before} />}</td>
                <td>{item.after === null ? '—' : <Verdict state={item.after} />}</td>
                <td>{item.change}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {comparison.metrics.length === 0 ? null : (
        <table class="list metrics">
          <thead>
            <tr>
              <th>Metric</th>
              <th>Measure</th>
              <th class="num">Before</th>
              <th class="num">Now</th>
              <th class="num">Delta</th>
            </tr>
          </thead>
          <tbody>
            {comparison.metrics.map((metric) => {
              const format = metric.measure === 'pass rate' ? percent : plain;
              return (
                <tr>
                  <td>
                    {metric.scorer}/{metric.metric}
                  </td>
                  <td>{metric.measure}</td>
                  <td class="num">{format(metric.before)}</td>
                  <td class="num">{format(metric.after)}</td>
                  <td class="num">{signed(metric.delta, format)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Cases a page shows. */
export const CASES_PER_PAGE = 50;

/** The experiment page. */
export function ExperimentPage(props: {
  frame: PageFrame;
  view: ExperimentView;
  /** The first case shown (an index). */
  from: number;
  /** The output files of the cases shown, by case ID. */
  files: Map<string, CaseFiles>;
  baseline?: BaselineView;
  /** The `?baseline=` of this URL, kept by the pager. */
  baselineParam?: string;
}) {
  const { view, from } = props;
  const { experiment, totals } = view;
  const scorers = new Map(view.scorers.map((scorer) => [scorer.versionId, scorer]));
  const shown = view.outcomes.slice(from, from + CASES_PER_PAGE);
  const page = (at: number) =>
    experimentPageHref(experiment.id, {
      from: at,
      ...(props.baselineParam === undefined ? {} : { baseline: props.baselineParam }),
    });
  const states: CaseState[] = ['PASS', 'FAIL', 'ERROR', 'PENDING', 'STARTED', 'NOT RUN'];
  return (
    <Layout frame={props.frame} title={`Experiment ${experiment.name}`} search={false}>
      <h1>{experiment.name}</h1>
      <dl class="facts">
        <div>
          <dt>Eval set</dt>
          <dd>
            {view.dataset.slug} v{view.datasetVersion.number}
          </dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd>{view.revision === null ? '—' : <code class="revision">{view.revision}</code>}</dd>
        </div>
        <div>
          <dt>Scorers</dt>
          <dd>
            {view.scorers.map((scorer) => `${scorer.slug} v${scorer.number} (${scorer.kind})`).join(', ') ||
              '—'}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatTime(experiment.createdAt)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{experiment.finishedAt === null ? 'open' : formatTime(experiment.finishedAt)}</dd>
        </div>
        <div>
          <dt>ID</dt>
          <dd>
            <code>{experiment.id}</code>
          </dd>
        </div>
      </dl>
      <p class="totals">
        {states
          .filter((state) => totals[state] > 0 || ['PASS', 'FAIL', 'ERROR', 'PENDING'].includes(state))
          .map((state) => (
            <span class={`total ${STATE_CLASSES[state]}`}>
              <Verdict state={state} /> {formatCount(totals[state])}
            </span>
          ))}
        <span class="muted">of {formatCount(totals.cases)} cases</span>
      </p>
      {props.baseline === undefined ? null : (
        <Comparison baseline={props.baseline} experimentId={experiment.id} />
      )}
      <h2>Cases</h2>
      {shown.length === 0 ? (
        <p class="notice">{from === 0 ? 'This experiment has no cases.' : 'No more cases.'}</p>
      ) : (
        <table class="list cases">
          <thead>
            <tr>
              <th>Case</th>
              <th>State</th>
              <th>Scores</th>
              <th>Output files</th>
              <th>Trace</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((outcome) => (
              <CaseRow outcome={outcome} scorers={scorers} files={props.files.get(outcome.caseId)} />
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {from > 0 ? <a href={page(Math.max(0, from - CASES_PER_PAGE))}>« Previous cases</a> : null}
        {view.outcomes.length > from + CASES_PER_PAGE ? (
          <a href={page(from + CASES_PER_PAGE)}>
            Next cases ({formatCount(from + CASES_PER_PAGE + 1)}–
            {formatCount(Math.min(view.outcomes.length, from + 2 * CASES_PER_PAGE))}) »
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}
