/**
 * The `experimental_telemetry` settings of an AI SDK v6 call, recording through a tracing client.
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { type AnySvc, telemetrySource } from './telemetry-source.js';

/** The `experimental_telemetry` option of an AI SDK v6 call, as made by {@link svcExperimentalTelemetry}. */
export interface SvcExperimentalTelemetrySettings {
  isEnabled: boolean;
  recordInputs?: boolean;
  recordOutputs?: boolean;
  tracer?: Tracer;
}

/**
 * The `experimental_telemetry` option of an AI SDK v6 call (`generateText`, `streamText`, …):
 * telemetry on, the client's tracer (so the `ai.*` spans nest under the enclosing
 * `svc.withSpan`), and `recordInputs`/`recordOutputs` set from the client's `captureContent`.
 * A disabled safe client gives `{ isEnabled: false }`. Throws `TypeError` when `svc` is not a
 * client. For AI SDK v7, use `svcTelemetry(svc)` as `telemetry`.
 *
 * @example
 * ```ts
 * import { svcExperimentalTelemetry } from '@svc-run/sdk/ai-sdk';
 * import { generateText } from 'ai'; // v6
 *
 * const { text } = await svc.withSpan('agent', () =>
 *   generateText({
 *     model,
 *     prompt,
 *     experimental_telemetry: { ...svcExperimentalTelemetry(svc), functionId: 'support-chat' },
 *   }),
 * );
 * ```
 */
export function svcExperimentalTelemetry(svc: AnySvc): SvcExperimentalTelemetrySettings {
  const source = telemetrySource(svc, 'svcExperimentalTelemetry');
  if (source === undefined) return { isEnabled: false };
  return {
    isEnabled: true,
    tracer: source.tracer,
    recordInputs: source.captureContent,
    recordOutputs: source.captureContent,
  };
}
