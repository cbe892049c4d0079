/**
 * The safe factory: a client whose telemetry failures never reach application code. With
 * `enabled: false` (or options that do not validate) it records nothing and needs no key, while
 * every method still runs the application's callbacks exactly once and returns their results.
 * @module
 */
import {
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { ProjectConnection } from '../connection/project-connection.js';
import { reportFailure } from '../diagnostics/report-failure.js';
import { type ExportReport, emptyExportReport } from '../export/export-report.js';
import type { RecordFileOptions } from '../media/attachment/recorded-file.js';
import type { ExportIssue, SvcOptions } from '../options/svc-options.js';
import type { TraceVerification } from '../verify/trace-receipt.js';
import type { VerifyTraceOptions } from '../verify/verify-options.js';
import { type ModelCallHandle, type ModelCallOptions, validateModelCall } from './model-call.js';
import { type SpanHandle, validateWithSpan, type WithSpanOptions } from './span-options.js';
import { createSvc, type McpClientLike, type SvcClient } from './svc-client.js';

/** Options of {@link createSvcSafe}: the client options, and `enabled` (default true). */
export type SvcSafeOptions = (SvcOptions & { enabled?: true }) | (Partial<SvcOptions> & { enabled: false });

/** The diagnostics of a safe client (empty when disabled). */
export interface SafeTransport {
  getReport(): ExportReport;
  getIssues(): ExportIssue[];
  getFailureSequence(): number;
}

const noopTracer: Tracer = new ProxyTracerProvider().getTracer('@svc-run/sdk');

function noopHandle(): SpanHandle {
  const span: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  return {
    span,
    context: context.active(),
    traceId: INVALID_SPAN_CONTEXT.traceId,
    spanId: INVALID_SPAN_CONTEXT.spanId,
    setInput: () => undefined,
    setOutput: () => undefined,
    recordFile: () => undefined,
  };
}

const emptyTransport: SafeTransport = {
  getReport: emptyExportReport,
  getIssues: () => [],
  getFailureSequence: () => 0,
};

/**
 * A tracing client that never lets telemetry change the application's result or error. Disabled,
 * or created from options that do not validate, it records nothing (`enabled` tells which).
 */
export class SafeSvc {
  readonly #client: SvcClient | undefined;

  constructor(client: SvcClient | undefined) {
    this.#client = client;
  }

  /** Whether telemetry is recorded. */
  get enabled(): boolean {
    return this.#client !== undefined;
  }

  get tracer(): Tracer {
    return this.#client?.tracer ?? noopTracer;
  }

  get transport(): SafeTransport {
    return this.#client?.transport ?? emptyTransport;
  }

  getContext(): Context {
    return this.#client?.getContext() ?? context.active();
  }

  /** Like `SvcClient.withSpan`; invalid options record no span instead of throwing. */
  withSpan<T>(name: string, callback: (span: SpanHandle) => T, options?: WithSpanOptions): T {
    if (this.#client === undefined || !this.#valid(name, callback, options)) return callback(noopHandle());
    return this.#client.withSpan(name, callback, options);
  }

  /** Like `SvcClient.model`; invalid options record no span instead of throwing. */
  model<T>(options: ModelCallOptions, callback: (call: ModelCallHandle) => T): T {
    let valid = this.#client !== undefined;
    try {
      validateModelCall(options);
    } catch (error) {
      // The application's misuse: no span, the callback still runs; told on diag.
      if (valid) reportFailure('warn', 'model() recorded no span: its options are invalid', error);
      valid = false;
    }
    // The callback runs exactly once, outside any telemetry error handling.
    if (!valid) return callback({ ...noopHandle(), setResponse: () => undefined });
    return this.#client!.model(options, callback);
  }

  /** Like `SvcClient.tool`: `execute` runs once, whatever happens to telemetry. */
  tool<T>(
    name: string,
    input: unknown,
    execute: () => T | Promise<T>,
    options?: { mcp?: McpClientLike },
  ): Promise<T> {
    if (this.#client === undefined || typeof name !== 'string' || name.trim() === '') {
      return Promise.resolve().then(execute);
    }
    return this.#client.tool(name, input, execute, options);
  }

  recordError(span: Span, error: unknown): void {
    try {
      this.#client?.recordError(span, error);
    } catch (failure) {
      // Telemetry only; reading the application's error may have thrown: its type alone is told.
      reportFailure('warn', 'recordError recorded nothing', failure, { message: false });
    }
  }

  /** Like `SvcClient.recordFile`. */
  recordFile(span: Span, options: RecordFileOptions): void {
    try {
      this.#client?.recordFile(span, options);
    } catch (error) {
      // Telemetry only (recordFile reports its own problems as issues: this is a defect).
      reportFailure('error', 'recordFile failed unexpectedly', error);
    }
  }

  recordMessages(messages: { input?: unknown; output?: unknown }, explicitContext?: Context): void {
    try {
      this.#client?.recordMessages(messages, explicitContext);
    } catch (error) {
      // Telemetry only (recordMessages reports its own problems as issues: this is a defect).
      reportFailure('error', 'recordMessages failed unexpectedly', error);
    }
  }

  /** The project connection, or `undefined` when disabled or the check failed. */
  async checkConnection(): Promise<ProjectConnection | undefined> {
    try {
      return await this.#client?.checkConnection();
    } catch (error) {
      // SvcConnectionError's message names the status or network code, never a key or a body.
      reportFailure('warn', 'the connection check failed', error);
      return undefined;
    }
  }

  /** Like `SvcClient.verifyTrace`; any failure answers `{ verified: false, receipt: null }`. */
  async verifyTrace(traceId: string, options?: VerifyTraceOptions): Promise<TraceVerification> {
    try {
      return (await this.#client?.verifyTrace(traceId, options)) ?? { verified: false, receipt: null };
    } catch (error) {
      reportFailure('warn', 'verifyTrace could not verify the trace', error);
      return { verified: false, receipt: null };
    }
  }

  /** `flushSafe` with the default deadline: never throws. */
  flush(): Promise<ExportReport> {
    return this.flushSafe();
  }

  /** `shutdownSafe` with the default deadline: never throws. */
  shutdown(): Promise<ExportReport> {
    return this.shutdownSafe();
  }

  async flushSafe(deadlineMillis?: number): Promise<ExportReport> {
    return (await this.#client?.flushSafe(deadlineMillis)) ?? emptyExportReport();
  }

  async shutdownSafe(deadlineMillis?: number): Promise<ExportReport> {
    return (await this.#client?.shutdownSafe(deadlineMillis)) ?? emptyExportReport();
  }

  #valid(name: string, callback: unknown, options: WithSpanOptions | undefined): boolean {
    try {
      validateWithSpan(name, callback, options);
      return typeof callback === 'function';
    } catch (error) {
      // The application's misuse: no span, the callback still runs; told on diag.
      reportFailure('warn', 'withSpan recorded no span: its arguments are invalid', error);
      return false;
    }
  }
}

/**
 * Creates a safe client, once per serving process. `enabled: false` disables it without needing a
 * key. Options that do not validate also give a disabled client, with one line on stderr saying
 * which option is wrong (never its value when it is the key).
 */
export function createSvcSafe(options: SvcSafeOptions): SafeSvc {
  if (options?.enabled === false) return new SafeSvc(undefined);
  try {
    const { enabled: _enabled, ...rest } = options as SvcOptions & { enabled?: boolean };
    return new SafeSvc(createSvc(rest));
  } catch (error) {
    process.emitWarning(
      `svc-run telemetry is disabled: ${error instanceof Error ? error.message : 'invalid options'}`,
      {
        code: 'SVC_RUN_DISABLED',
      },
    );
    return new SafeSvc(undefined);
  }
}
