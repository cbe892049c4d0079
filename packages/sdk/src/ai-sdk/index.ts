/**
 * `@svc-run/sdk/ai-sdk`: record Vercel AI SDK calls through a tracing client. `svcTelemetry(svc)`
 * is the `telemetry` option of AI SDK v7 (needs `@ai-sdk/otel`); `svcExperimentalTelemetry(svc)`
 * is the `experimental_telemetry` option of AI SDK v6.
 *
 * @example
 * ```ts
 * import { createSvc } from '@svc-run/sdk';
 * import { svcTelemetry } from '@svc-run/sdk/ai-sdk';
 * import { generateText, isStepCount } from 'ai';
 *
 * const svc = createSvc({ apiKey: process.env.SVC_API_KEY!, serviceName: 'agent', captureContent: true });
 * const { text } = await svc.withSpan(
 *   'agent',
 *   () => generateText({ model, tools, prompt, stopWhen: isStepCount(5), telemetry: svcTelemetry(svc) }),
 *   { sessionId, userId },
 * );
 * await svc.flush();
 * ```
 * @module
 */

export {
  type SvcExperimentalTelemetrySettings,
  svcExperimentalTelemetry,
} from './svc-experimental-telemetry.js';
export { type SvcTelemetryOptions, svcTelemetry } from './svc-telemetry.js';
