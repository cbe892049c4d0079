/**
 * Per-call telemetry options for AI SDK v7 (`ai@^7`, with `@ai-sdk/otel@^1`): the AI SDK records
 * its `ai.*` spans with the client's tracer, so they nest under the enclosing `svc.withSpan`.
 * @module
 */
import type { LegacyOpenTelemetry } from '@ai-sdk/otel';
import type { Tracer } from '@opentelemetry/api';
import type { Telemetry } from 'ai';
import { type AnySvc, telemetrySource } from './telemetry-source.js';

/** The `telemetry` option of an AI SDK v7 call, as made by {@link svcTelemetry}. */
export interface SvcTelemetryOptions {
  isEnabled: boolean;
  recordInputs?: boolean;
  recordOutputs?: boolean;
  integrations?: Telemetry[];
}

// `@ai-sdk/otel` is an optional peer dependency, and applications on AI SDK v6 import
// `svcExperimentalTelemetry` from this entry without it: a failed load is kept, not thrown.
const otel: { LegacyOpenTelemetry: typeof LegacyOpenTelemetry } | { error: unknown } = await import(
  '@ai-sdk/otel'
).catch((error: unknown) => ({ error }));

const MISSING_OTEL =
  'svcTelemetry needs AI SDK v7 and its optional peer dependency @ai-sdk/otel: install them with ' +
  '`npm i ai@^7 @ai-sdk/otel@^1`. With AI SDK v6, pass svcExperimentalTelemetry(svc) as ' +
  '`experimental_telemetry` instead.';

const integrations = new WeakMap<Tracer, Telemetry>();
let warned = false;

/** The client's integration (one per tracer), or `undefined` when `@ai-sdk/otel` did not load. */
function integrationFor(tracer: Tracer, safe: boolean): Telemetry | undefined {
  if ('error' in otel) {
    if (!safe) throw new Error(MISSING_OTEL, { cause: otel.error });
    if (!warned) {
      warned = true;
      process.emitWarning(`svc-run telemetry is off for AI SDK calls: ${MISSING_OTEL}`, {
        code: 'SVC_RUN_AI_SDK_OTEL_MISSING',
      });
    }
    return undefined;
  }
  let integration = integrations.get(tracer);
  if (integration === undefined) {
    integration = new otel.LegacyOpenTelemetry({ tracer }) as unknown as Telemetry;
    integrations.set(tracer, integration);
  }
  return integration;
}

/**
 * The `telemetry` option of an AI SDK v7 call (`generateText`, `streamText`, …) that records its
 * `ai.*` spans through `svc`: with the client's tracer, so they nest under the enclosing
 * `svc.withSpan`, and with `recordInputs`/`recordOutputs` set from the client's `captureContent`.
 *
 * Per-call integrations replace the globally registered ones (`registerTelemetry`) for that
 * call: add any you still need to `integrations`. A disabled safe client gives
 * `{ isEnabled: false }`. Throws `TypeError` when `svc` is not a client, and an `Error` when
 * `@ai-sdk/otel` cannot be loaded (a safe client warns once and disables telemetry instead).
 *
 * @example
 * ```ts
 * import { svcTelemetry } from '@svc-run/sdk/ai-sdk';
 * import { generateText } from 'ai';
 *
 * const { text } = await svc.withSpan('agent', () =>
 *   generateText({ model, prompt, telemetry: { ...svcTelemetry(svc), functionId: 'support-chat' } }),
 * );
 * ```
 */
export function svcTelemetry(svc: AnySvc): SvcTelemetryOptions {
  const source = telemetrySource(svc, 'svcTelemetry');
  if (source === undefined) return { isEnabled: false };
  const integration = integrationFor(source.tracer, 'enabled' in svc);
  if (integration === undefined) return { isEnabled: false };
  return {
    isEnabled: true,
    recordInputs: source.captureContent,
    recordOutputs: source.captureContent,
    integrations: [integration],
  };
}
