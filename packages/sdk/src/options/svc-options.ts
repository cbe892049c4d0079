/**
 * The client options of the spec's "Client options" table, and their validated form.
 * @module
 */

/** The hosted service's origin, the default `baseUrl`. */
export const DEFAULT_BASE_URL = 'https://api.svc.run';

/** Default `timeoutMillis`: transport requests and the connection check. */
export const DEFAULT_TIMEOUT_MILLIS = 10_000;

/** A sanitized export diagnostic (see the spec's "Export issue"). */
export interface ExportIssue {
  /** Grows by one with every issue raised by a transport. */
  sequence: number;
  signal: 'traces' | 'logs';
  kind: 'rejected' | 'failed' | 'dropped' | 'invalid' | 'warning';
  /** Records concerned. */
  count: number;
  /** HTTP status, when an answer had one. */
  status?: number;
  /** Written by the SDK: never a key, a response body or recorded content. */
  message: string;
}

/** Rewrites a string before export; `path` names where it is (e.g. `attributes.gen_ai.input.messages`). */
export type Redactor = (value: string, path: string) => string;

/** Options of `createSvc`, `new SvcClient` and `createSvcTransport`. */
export interface SvcOptions {
  /** Required. The project service key; server side only. */
  apiKey: string;
  /** Required. 1 to 256 characters with non-whitespace content; sets `service.name`. */
  serviceName: string;
  /** Required explicit choice: whether recorded content (messages, inputs, outputs) is exported. */
  captureContent: boolean;
  /** The service origin (no path, query, fragment or credentials); HTTPS except loopback HTTP. */
  baseUrl?: string;
  /** Sets `service.version` on the providers the client creates. */
  serviceVersion?: string;
  /** Integer 100 to 60000; default 10000. Per transport request and connection check. */
  timeoutMillis?: number;
  /** Runs first on strings of attributes, resources, event and link attributes and log bodies. */
  redact?: Redactor;
  /** Receives sanitized export diagnostics. */
  onExportIssue?: (issue: ExportIssue) => void;
}

/** Options after validation: defaults applied, `baseUrl` normalized to its origin. */
export interface ResolvedSvcOptions {
  apiKey: string;
  serviceName: string;
  captureContent: boolean;
  baseUrl: string;
  serviceVersion: string | undefined;
  timeoutMillis: number;
  redact: Redactor | undefined;
  onExportIssue: ((issue: ExportIssue) => void) | undefined;
}

/** What an HTTP call to the service needs. */
export interface ServiceEndpoint {
  /** The origin, e.g. `https://api.svc.run` or `http://127.0.0.1:4318`, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  timeoutMillis: number;
}
