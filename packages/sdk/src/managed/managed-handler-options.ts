/**
 * Options of `createManagedTargetHandler`, and their validation (once, when the handler is made).
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { describeKind, describeValue } from '../diagnostics/describe-value.js';
import { validateIntegerOption } from '../options/integer-option.js';
import { validateBaseUrl } from '../options/validate-options.js';
import type { ManagedTarget } from './managed-types.js';

/** Longest (and default) execution budget of a managed handler, in ms. */
export const MAX_EXECUTION_MILLIS = 90_000;

/** Longest (and default) finalization budget of a managed handler, in ms. */
export const MAX_FINALIZATION_MILLIS = 30_000;

/** Shortest execution or finalization budget accepted, in ms. */
export const MIN_BUDGET_MILLIS = 100;

/** Options of `createManagedTargetHandler`. */
export interface ManagedTargetHandlerOptions {
  /**
   * Required. The project's machine credential (`SVC_MACHINE_KEY`): the handler checks the
   * service's signature of each request with it, and claims executions and saves outcomes with it.
   */
  machineCredential: string;
  /** Required. The agent: runs once per claimed execution. */
  target: ManagedTarget;
  /**
   * Required. Flushes the application's telemetry (for example `() => svc.flush()`); called after
   * the outcome is saved, within the finalization budget. Its failure never fails the request.
   */
  flushTelemetry: () => unknown;
  /** An OpenTelemetry tracer (for example `svc.tracer`): the target then runs inside a span of it. */
  tracer?: Tracer;
  /** The service origin; the SDK's default origin when omitted. */
  baseUrl?: string;
  /** Integer 100 to 90000; default 90000. From the claim to the target's end (input downloads included). */
  maxExecutionMillis?: number;
  /** Integer 100 to 30000; default 30000. From the target's end to the answer: files, outcome, flush. */
  finalizationMillis?: number;
}

/** Options after validation. */
export interface ResolvedManagedHandlerOptions {
  machineCredential: string;
  target: ManagedTarget;
  flushTelemetry: () => unknown;
  tracer: Tracer | undefined;
  baseUrl: string;
  maxExecutionMillis: number;
  finalizationMillis: number;
}

const OPTION_NAMES = [
  'machineCredential',
  'target',
  'flushTelemetry',
  'tracer',
  'baseUrl',
  'maxExecutionMillis',
  'finalizationMillis',
] as const;

/** A budget in ms: an integer from {@link MIN_BUDGET_MILLIS} to `max`, `max` when unset. */
function budget(name: string, value: unknown, max: number): number {
  return validateIntegerOption(name, value, { min: MIN_BUDGET_MILLIS, max, fallback: max }, describeValue);
}

/**
 * Validates the options once.
 *
 * @throws TypeError naming the option, the bad value (never the credential's) and the rule.
 */
export function validateManagedHandlerOptions(options: unknown): ResolvedManagedHandlerOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(
      `options must be an object { machineCredential, target, flushTelemetry, tracer?, baseUrl?, maxExecutionMillis?, finalizationMillis? }; got ${describeKind(options)}`,
    );
  }
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(
        `${JSON.stringify(name).slice(0, 80)} is not an option of createManagedTargetHandler; the options are ${OPTION_NAMES.join(', ')}`,
      );
    }
  }
  const { machineCredential, target, flushTelemetry, tracer } = given;
  if (typeof machineCredential !== 'string' || machineCredential === '') {
    // Only the type is shown: even a wrong value may be (part of) a secret.
    throw new TypeError(
      `machineCredential must be a non-empty string (the project's machine credential, SVC_MACHINE_KEY); got ${describeKind(machineCredential)}`,
    );
  }
  if (typeof target !== 'function') {
    throw new TypeError(
      `target must be a function ({ inputs, config, files, execution, traceId, signal }) => result; got ${describeValue(target)}`,
    );
  }
  if (typeof flushTelemetry !== 'function') {
    throw new TypeError(
      `flushTelemetry must be a function flushing the application's telemetry (for example () => svc.flush()); got ${describeValue(flushTelemetry)}`,
    );
  }
  if (
    tracer !== undefined &&
    (typeof tracer !== 'object' ||
      tracer === null ||
      typeof (tracer as { startActiveSpan?: unknown }).startActiveSpan !== 'function')
  ) {
    throw new TypeError(
      `tracer must be an OpenTelemetry Tracer (for example svc.tracer) when set; got ${describeValue(tracer)}`,
    );
  }
  return {
    machineCredential,
    target: target as ManagedTarget,
    flushTelemetry: flushTelemetry as () => unknown,
    tracer: tracer as Tracer | undefined,
    baseUrl: validateBaseUrl(given.baseUrl),
    maxExecutionMillis: budget('maxExecutionMillis', given.maxExecutionMillis, MAX_EXECUTION_MILLIS),
    finalizationMillis: budget('finalizationMillis', given.finalizationMillis, MAX_FINALIZATION_MILLIS),
  };
}
