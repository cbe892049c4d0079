/**
 * The tracing client `svc eval` records its runs with, in every mode: the service's origin and key
 * from the env file, content captured only when asked.
 * @module
 */
import { createSvc, type SvcClient } from '@svc-run/sdk';
import type { ServiceCredentials } from '../../credentials/service-credentials.js';

/** The client's timeout: the longest allowed, so a slow service slows a run, never fails it. */
const TIMEOUT_MILLIS = 60_000;

/** A tracing client for `credentials`, naming itself `serviceName`. */
export function evalTracingClient(
  credentials: ServiceCredentials,
  serviceName: string,
  captureContent: boolean,
): SvcClient {
  return createSvc({
    apiKey: credentials.apiKey,
    baseUrl: credentials.baseUrl,
    serviceName,
    captureContent,
    timeoutMillis: TIMEOUT_MILLIS,
  });
}
