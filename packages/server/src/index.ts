/**
 * `@svc-run/server`: the reference implementation of the service.
 * @module
 */
export { type AppOptions, createApp, type SvcApp } from './app.js';
export type { KeyPreset, RouteAccess, RouteId } from './auth/key-presets.js';
export { KEY_PREFIXES, KEY_PRESETS, ROUTE_ACCESS } from './auth/key-presets.js';
export { type Fault, FaultInjector } from './faults/fault-injector.js';
export type { ApiErrorBody, ApiErrorCode } from './http/api-error.js';
export { MAX_EXPECTED_SPAN_IDS, MAX_OTLP_BODY_BYTES, MAX_RECEIPT_BYTES } from './limits.js';
export type { Project, ProjectKeys } from './project/project.js';
export { FIELD_CONVENTIONS, RECEIPT_FIELDS, type ReceiptField } from './receipt/field-conventions.js';
export type { TraceReceipt } from './routes/receipt-route.js';
export { DATABASE_FILE, type RunningServer, type StartServerOptions, startServer } from './start-server.js';
export type { TraceStore, TraceSummary } from './store/trace-store.js';
