/**
 * What the AI SDK adapters need of a tracing client: its tracer (which keeps the client's local
 * async context) and its content-capture setting. Internal to the `/ai-sdk` entry.
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { SafeSvc } from '../client/create-svc-safe.js';
import type { SvcClient } from '../client/svc-client.js';
import { describeKind } from '../diagnostics/describe-value.js';
import { type SvcTransport, transportInternals } from '../export/svc-transport.js';

/** A tracing client: made by `createSvc` (`SvcClient`) or `createSvcSafe` (`SafeSvc`). */
export type AnySvc = SvcClient | SafeSvc;

/** The tracer to record with and whether content may be recorded. */
export interface TelemetrySource {
  tracer: Tracer;
  captureContent: boolean;
}

/**
 * The tracer and capture setting of `svc`, or `undefined` for a disabled safe client. Throws
 * `TypeError` (naming `caller`) when `svc` is not a client.
 */
export function telemetrySource(svc: AnySvc, caller: string): TelemetrySource | undefined {
  if (typeof svc === 'object' && svc !== null) {
    const transport: unknown = (svc as { transport?: unknown }).transport;
    const internals =
      typeof transport === 'object' && transport !== null
        ? transportInternals(transport as SvcTransport)
        : undefined;
    if (internals !== undefined) {
      return { tracer: svc.tracer, captureContent: internals.options.captureContent };
    }
    if ((svc as { enabled?: unknown }).enabled === false) return undefined;
  }
  throw new TypeError(
    `${caller}(svc): svc must be a client made by createSvc or createSvcSafe; got ${describeKind(svc)}`,
  );
}
