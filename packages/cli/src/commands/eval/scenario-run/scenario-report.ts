/**
 * The human-readable report of a scenario run: each case's verdict with its failed checks by name
 * (or its trials' errors), pass^k per case when there are several trials, the totals and the run's
 * link, then the comparison with the baseline. Text from the scenario or the agent is shown on one
 * line with control characters escaped.
 * @module
 */
import { baselineReport, clip, table } from '../human-report.js';
import type { ScenarioDocumentCase, ScenarioEvalDocument } from './scenario-document.js';

const DETAIL_CHARS = 160;

function detail(item: ScenarioDocumentCase): string {
  const failed = [...new Set(item.trials.flatMap((trial) => trial.failedChecks))];
  const errors = [
    ...new Set(
      item.trials.flatMap((trial) =>
        trial.error === undefined
          ? []
          : [`${trial.error.type}${trial.error.message === undefined ? '' : `: ${trial.error.message}`}`],
      ),
    ),
  ];
  const unchecked = [...new Set(item.trials.flatMap((trial) => trial.erroredChecks))];
  const parts: string[] = [];
  if (failed.length > 0) parts.push(`failed: ${failed.join(', ')}`);
  if (unchecked.length > 0) parts.push(`not graded (check error): ${unchecked.join(', ')}`);
  if (errors.length > 0) parts.push(errors.join('; '));
  const waiting = item.trials.filter((trial) => trial.outcome === 'pending').length;
  if (waiting > 0) parts.push(`checks pending on ${waiting} trial${waiting === 1 ? '' : 's'}`);
  const unsealed = item.trials.filter((trial) => trial.state !== 'sealed').length;
  if (unsealed > 0) parts.push(`${unsealed} trial${unsealed === 1 ? '' : 's'} not sealed`);
  return parts.join('; ');
}

function ratio(value: number | null): string {
  return value === null ? '–' : String(Math.round(value * 1000) / 1000);
}

/** The report of a scenario run. */
export function scenarioReport(document: ScenarioEvalDocument): string {
  const { totals, trials } = document;
  const several = trials > 1;
  const head = `svc eval: scenario ${document.scenario.slug} v${document.scenario.version}, ${totals.cases} case${totals.cases === 1 ? '' : 's'}${several ? ` × ${trials} trials` : ''}`;
  const rows = [
    several ? ['CASE', 'STATE', `PASS^${trials}`, 'PASSED', 'DETAIL'] : ['CASE', 'STATE', 'DETAIL'],
    ...document.cases.map((item) => {
      const text = clip(detail(item), DETAIL_CHARS);
      return several
        ? [clip(item.caseKey, 48), item.state, ratio(item.passHatK), `${item.passed}/${trials}`, text]
        : [clip(item.caseKey, 48), item.state, text];
    }),
  ];
  const lines = [
    head,
    '',
    table(rows),
    '',
    `Totals: ${totals.passed} passed, ${totals.failed} failed, ${totals.errored} errored, ${totals.pending} pending, of ${totals.cases}${document.complete ? '' : ' (grading not complete)'}`,
    ...(several ? [`pass^${trials}: ${ratio(document.passHatK)}`] : []),
    `Run: ${document.runUrl}`,
  ];
  const text = `${lines.join('\n')}\n`;
  return document.baseline === undefined ? text : `${text}\n${baselineReport(document.baseline)}`;
}
