/**
 * The scenario pages: `/scenarios` (the list), `/scenarios/{scenario}` (a scenario's public part,
 * its local agents and the Run button, its runs) and `/scenarios/runs/{runId}` (a run: each case's
 * trials, outcomes, failed checks by name, pass^k, and the trace of each trial). Every value shown
 * is text the JSX escapes; a scenario's grading is never on a page.
 * @module
 */
import type { Launch, LocalAgent } from '../../scenarios/store/local-agents.js';
import type { RunRecord, ScenarioRun } from '../../scenarios/store/run-store.js';
import type { Scenario, ScenarioVersion } from '../../scenarios/store/scenario-store.js';
import { formatCount } from '../format.js';
import { Layout, type PageFrame } from './layout.js';

/** `/scenarios`. */
export function ScenarioListPage(props: { frame: PageFrame; scenarios: Scenario[]; liveAgents: number }) {
  return (
    <Layout frame={props.frame} title="Scenarios" search={false}>
      <h1>Scenarios</h1>
      <p class="muted">
        Simulated worlds with sealed grading. Publish one with <code>svc scenario publish &lt;file&gt;</code>,
        run it with <code>svc eval --scenario</code>, or run it here on a live local agent (
        {formatCount(props.liveAgents)} live).
      </p>
      {props.scenarios.length === 0 ? (
        <p class="notice">No scenario is published yet.</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Slug</th>
              <th class="num">Versions</th>
              <th>Updated (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {props.scenarios.map((scenario) => (
              <tr>
                <td class="name">
                  <a href={`/scenarios/${scenario.id}`}>{scenario.name}</a>
                  {scenario.description === undefined ? null : (
                    <div class="muted">{scenario.description}</div>
                  )}
                </td>
                <td>
                  <code>{scenario.slug}</code>
                </td>
                <td class="num">{formatCount(scenario.versionCount)}</td>
                <td>{scenario.updatedAt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

function RunForm(props: { scenario: Scenario; agents: LocalAgent[] }) {
  const live = props.agents.filter((agent) => agent.live);
  return (
    <form class="filters" method="post" action={`/scenarios/${props.scenario.id}/run`}>
      <label>
        Trials per case
        <input name="trials" type="number" min="1" max="100" value="1" />
      </label>
      <label>
        Local agent
        <select name="agentId">
          <option value="">any live agent</option>
          {live.map((agent) => (
            <option value={agent.id}>{`${agent.name} on ${agent.host}`}</option>
          ))}
        </select>
      </label>
      <div class="actions">
        <button class="primary" type="submit">
          Run
        </button>
      </div>
    </form>
  );
}

/** `/scenarios/{scenario}`. */
export function ScenarioPage(props: {
  frame: PageFrame;
  scenario: Scenario;
  version: ScenarioVersion;
  agents: LocalAgent[];
  runs: RunRecord[];
  /** Why a launch was refused (no live worker). */
  problem?: string;
}) {
  const { scenario, version } = props;
  return (
    <Layout frame={props.frame} title={scenario.name} search={false}>
      <p>
        <a href="/scenarios">« Scenarios</a>
      </p>
      <h1>{scenario.name}</h1>
      <p class="muted">
        <code>{scenario.slug}</code> · version {version.number} of {formatCount(scenario.versionCount)} ·
        document sha256 <code>{version.digest.slice(0, 12)}</code> · its grading is sealed
      </p>
      {scenario.description === undefined ? null : <p>{scenario.description}</p>}
      <h2>Run</h2>
      {props.problem === undefined ? null : (
        <p class="problem" role="alert">
          {props.problem}
        </p>
      )}
      {props.agents.some((agent) => agent.live) ? null : (
        <p class="notice">
          No local agent is live: start one with{' '}
          <code>svc eval --worker &lt;agent file&gt; --env-file &lt;file&gt;</code>.
        </p>
      )}
      <RunForm scenario={scenario} agents={props.agents} />
      <h2>Runs</h2>
      {props.runs.length === 0 ? (
        <p class="muted">No run yet.</p>
      ) : (
        <ul>
          {props.runs.map((run) => (
            <li>
              <a href={`/scenarios/runs/${run.id}`}>{run.name}</a>{' '}
              <span class="muted">
                {run.createdAt} · {formatCount(run.trials)} trials per case
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>Tools</h2>
      <table class="kv">
        <tbody>
          {version.tools.map((tool) => (
            <tr>
              <th>
                <code>{tool.name}</code>
              </th>
              <td>
                {tool.description}
                <pre>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Cases</h2>
      <table class="kv">
        <tbody>
          {version.cases.map((item) => (
            <tr>
              <th>
                <code>{item.key}</code>
                {item.name === undefined ? null : <div class="muted">{item.name}</div>}
              </th>
              <td>
                <pre>{JSON.stringify(item.inputs, null, 2)}</pre>
                {item.files.length === 0 ? null : (
                  <div class="muted">
                    Files:{' '}
                    {item.files
                      .map((file) => `${file.name} (${file.mediaType}, ${formatCount(file.size)} bytes)`)
                      .join(', ')}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  );
}

function Outcome(props: { outcome: string | null; state: string }) {
  if (props.outcome === null)
    return <span class="muted">{props.state === 'open' ? 'running' : 'not started'}</span>;
  const label =
    { passed: 'PASS', failed: 'FAIL', errored: 'ERROR', pending: 'pending' }[props.outcome] ?? props.outcome;
  return <span class={props.outcome === 'passed' ? 'badge' : 'badge err'}>{label}</span>;
}

/** `/scenarios/runs/{runId}`. */
export function ScenarioRunPage(props: {
  frame: PageFrame;
  run: ScenarioRun;
  scenario: Scenario;
  launch?: Launch | undefined;
  agent?: LocalAgent | undefined;
}) {
  const { run } = props;
  return (
    <Layout frame={props.frame} title={run.name} search={false} wide>
      {run.complete ? null : <meta http-equiv="refresh" content="5" />}
      <p>
        <a href={`/scenarios/${props.scenario.id}`}>« {props.scenario.name}</a>
      </p>
      <h1>{run.name}</h1>
      <p class="muted">
        Run <code>{run.id}</code> · {formatCount(run.trials)} trials per case · experiment{' '}
        <code>{run.experimentId}</code>
        {props.launch === undefined
          ? null
          : ` · launched on ${props.agent?.name ?? 'a local agent'} (${props.launch.state})`}
      </p>
      <p>
        {formatCount(run.totals.passed)} of {formatCount(run.totals.trials)} trials passed ·{' '}
        {formatCount(run.totals.failed)} failed · {formatCount(run.totals.errored)} errored ·{' '}
        {formatCount(run.totals.pending)} pending
        {run.passHatK === null ? '' : ` · pass^${run.trials} ${run.passHatK.toFixed(2)}`}
        {run.complete ? '' : ' · this page refreshes until the run is complete'}
      </p>
      <table class="list">
        <thead>
          <tr>
            <th>Case</th>
            <th>Verdict</th>
            <th class="num">pass^{run.trials}</th>
            <th>Trials (outcome, failed checks, trace)</th>
          </tr>
        </thead>
        <tbody>
          {run.cases.map((item) => (
            <tr class={item.verdict === 'FAIL' || item.verdict === 'ERROR' ? 'err' : undefined}>
              <td class="name">
                <code>{item.caseKey}</code>
                {item.name === undefined ? null : <div class="muted">{item.name}</div>}
              </td>
              <td>{item.verdict ?? <span class="muted">…</span>}</td>
              <td class="num">{item.passHatK === null ? '–' : item.passHatK.toFixed(2)}</td>
              <td>
                {item.trials.map((slot) => (
                  <div>
                    #{slot.trial} <Outcome outcome={slot.outcome} state={slot.state} />
                    {slot.failedChecks.length === 0 ? null : (
                      <span class="muted"> failed: {slot.failedChecks.join(', ')}</span>
                    )}
                    {slot.traceId === null ? null : (
                      <>
                        {' '}
                        <a href={`/traces/${slot.traceId}`}>trace</a>
                      </>
                    )}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  );
}
