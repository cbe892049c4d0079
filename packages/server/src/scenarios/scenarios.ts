/**
 * The scenarios feature: its stores on the evaluation registry's database, built once per server.
 * @module
 */
import {
  type ResolvedScenarioOptions,
  resolveScenarioOptions,
  type ScenarioOptions,
} from './scenario-options.js';
import { LocalAgents } from './store/local-agents.js';
import { ScenarioRunStore } from './store/run-store.js';
import { ScenarioStore } from './store/scenario-store.js';
import { TrialStore } from './store/trial-store.js';
import { WorldCalls } from './store/world-calls.js';

/** The scenarios of one server. */
export interface Scenarios {
  readonly options: ResolvedScenarioOptions;
  readonly scenarios: ScenarioStore;
  readonly runs: ScenarioRunStore;
  readonly trials: TrialStore;
  readonly worlds: WorldCalls;
  readonly agents: LocalAgents;
}

/** Builds the scenarios feature on the registry. */
export function createScenarios(options: ScenarioOptions): Scenarios {
  const resolved = resolveScenarioOptions(options);
  const scenarios = new ScenarioStore(resolved.registry);
  const runs = new ScenarioRunStore(resolved.registry, scenarios);
  const trials = new TrialStore(resolved, { scenarios, runs });
  const worlds = new WorldCalls(resolved, trials);
  const agents = new LocalAgents(resolved, { scenarios, runs });
  return { options: resolved, scenarios, runs, trials, worlds, agents };
}
