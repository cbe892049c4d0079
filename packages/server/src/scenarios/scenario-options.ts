/**
 * What the scenarios feature is built with, and its defaults.
 * @module
 */
import type { EvalRegistry } from '../evals/eval-registry.js';

/** A trial's world takes calls for an hour by default; then its token is dead (it can still be sealed). */
export const DEFAULT_TRIAL_TTL_MILLIS = 60 * 60 * 1000;
/** A local agent is live while it polls at least this often (and holds its leases as long). */
export const DEFAULT_LIVE_MILLIS = 30_000;
/** How often a worker is told to poll. */
export const DEFAULT_POLL_INTERVAL_MILLIS = 2_000;

/** Options of the scenarios feature. */
export interface ScenarioOptions {
  /** The evaluation registry: a scenario's versions, runs and results live in it. */
  registry: EvalRegistry;
  /** The server's secret (32 bytes or more): trial tokens are derived with it. */
  tokenSecret: Buffer;
  /** The clock of expiries, liveness and leases, in ms since the epoch; default `Date.now` (tests inject one). */
  now?: (() => number) | undefined;
  /** How long a trial's world takes calls; default {@link DEFAULT_TRIAL_TTL_MILLIS}. */
  trialTtlMillis?: number | undefined;
  /** How recently a local agent must have polled to be live; default {@link DEFAULT_LIVE_MILLIS}. */
  liveMillis?: number | undefined;
  /** The poll interval told to workers; default {@link DEFAULT_POLL_INTERVAL_MILLIS}. */
  pollIntervalMillis?: number | undefined;
}

/** {@link ScenarioOptions} with defaults applied. */
export interface ResolvedScenarioOptions {
  registry: EvalRegistry;
  tokenSecret: Buffer;
  now: () => number;
  trialTtlMillis: number;
  liveMillis: number;
  pollIntervalMillis: number;
}

/** Applies the defaults. */
export function resolveScenarioOptions(options: ScenarioOptions): ResolvedScenarioOptions {
  return {
    registry: options.registry,
    tokenSecret: options.tokenSecret,
    now: options.now ?? Date.now,
    trialTtlMillis: options.trialTtlMillis ?? DEFAULT_TRIAL_TTL_MILLIS,
    liveMillis: options.liveMillis ?? DEFAULT_LIVE_MILLIS,
    pollIntervalMillis: options.pollIntervalMillis ?? DEFAULT_POLL_INTERVAL_MILLIS,
  };
}
