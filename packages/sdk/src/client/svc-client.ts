/**
 * The tracing client: spans and logs with the service's conventions, exported by a transport;
 * flush and shutdown with export reports; connection check and trace verification.
 * @module
 */
import {
  type Context,
  createContextKey,
  type Logger,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { checkConnection } from '../connection/check-connection.js';
import type { ProjectConnection } from '../connection/project-connection.js';
import { reportFailure } from '../diagnostics/report-failure.js';
import { SvcExportError } from '../errors/svc-export-error.js';
import type { ExportReport } from '../export/export-report.js';
import type { AttachedFile } from '../export/record-files.js';
import { createSvcTransport, type SvcTransport, transportInternals } from '../export/svc-transport.js';
import { attachmentFile } from '../media/attachment/attachment.js';
import { FILE_EVENT, type RecordFileOptions, recordedFile } from '../media/attachment/recorded-file.js';
import type { FoundFile } from '../media/media-types.js';
import { createMediaReader, type MediaReader } from '../media/read/index.js';
import type { SvcOptions } from '../options/svc-options.js';
import { requireSupportedRuntime } from '../runtime/supported-runtime.js';
import type { TraceVerification } from '../verify/trace-receipt.js';
import type { VerifyTraceOptions } from '../verify/verify-options.js';
import { verifyTrace } from '../verify/verify-trace.js';
import { SDK_SCOPE, SDK_VERSION } from '../version.js';
import * as attr from './attribute-names.js';
import { helperContent, type PlacedAttachment } from './helper-content.js';
import { LocalContext } from './local-context.js';
import { localTracer } from './local-tracer.js';
import {
  type ModelCallHandle,
  type ModelCallOptions,
  responseAttributes,
  validateModelCall,
} from './model-call.js';
import { type SpanHandle, validateWithSpan, type WithSpanOptions } from './span-options.js';

/** Providers an application owns, with the service's processors attached. */
export interface ExistingProviders {
  transport: SvcTransport;
  tracerProvider: { getTracer(name: string, version?: string): Tracer; forceFlush(): Promise<void> };
  loggerProvider: { getLogger(name: string, version?: string): Logger; forceFlush(): Promise<void> };
}

/** The MCP client a tool call went through: its server's name is recorded. */
export interface McpClientLike {
  getServerVersion(): { name?: string; version?: string } | undefined;
}

const SESSION_KEY = createContextKey('svc-run.session-id');
const USER_KEY = createContextKey('svc-run.user-id');
const DEFAULT_SAFE_DEADLINE_MILLIS = 1_000;

function isExistingProviders(options: SvcOptions | ExistingProviders): options is ExistingProviders {
  return typeof options === 'object' && options !== null && 'transport' in options;
}

function errorType(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name || 'Error';
  return typeof error;
}

/** The tracing client. Create one per process, at start-up. */
export class SvcClient {
  /** The transport exporting this client's spans and logs. */
  readonly transport: SvcTransport;
  /** An OpenTelemetry tracer that keeps the client's local async context. */
  readonly tracer: Tracer;
  /**
   * Reads recorded files back with the client's key (`media.fetch`, `media.resolve`). Reading
   * files needs a Read or Read-and-write key: with a Tracing key every read fails with
   * `MediaFetchError` reason `forbidden`, so most applications read through their own
   * `createMediaReader({ apiKey: readKey, baseUrl })` instead.
   */
  readonly media: MediaReader;
  readonly #logger: Logger;
  readonly #local = new LocalContext();
  readonly #captureContent: boolean;
  readonly #providers: { forceFlush(): Promise<void>; shutdown?(): Promise<void> }[];
  readonly #ownsProviders: boolean;
  #reportedThrough = 0;
  #flushing: Promise<ExportReport> | undefined;
  #shutdown: Promise<ExportReport> | undefined;

  /**
   * Creates a client with its own tracer and logger providers (never registered globally), or,
   * given `{ transport, tracerProvider, loggerProvider }`, a client on the application's providers
   * to which `transport`'s processors are attached. Throws `TypeError` for invalid options, and
   * `UnsupportedRuntimeError` on a runtime the SDK does not support (Node.js 20, for example).
   */
  constructor(options: SvcOptions | ExistingProviders) {
    requireSupportedRuntime();
    if (isExistingProviders(options)) {
      const { transport, tracerProvider, loggerProvider } = options;
      if (transportInternals(transport) === undefined) {
        throw new TypeError('transport must be made by createSvcTransport(options)');
      }
      for (const [name, provider] of [
        ['tracerProvider', tracerProvider],
        ['loggerProvider', loggerProvider],
      ] as const) {
        if (typeof provider?.forceFlush !== 'function') {
          throw new TypeError(`${name} must expose forceFlush(): Promise<void>`);
        }
      }
      this.transport = transport;
      this.tracer = localTracer(tracerProvider.getTracer(SDK_SCOPE, SDK_VERSION), this.#local);
      this.#logger = loggerProvider.getLogger(SDK_SCOPE, SDK_VERSION);
      this.#providers = [tracerProvider, loggerProvider];
      this.#ownsProviders = false;
    } else {
      this.transport = createSvcTransport(options);
      const { serviceName, serviceVersion } = transportInternals(this.transport)!.options;
      const resource = resourceFromAttributes({
        'service.name': serviceName,
        ...(serviceVersion === undefined ? {} : { 'service.version': serviceVersion }),
      });
      const tracerProvider = new TracerProvider({ resource, spanProcessors: [this.transport.spanProcessor] });
      const loggerProvider = new LoggerProvider({
        resource,
        processors: [this.transport.logRecordProcessor],
      });
      this.tracer = localTracer(tracerProvider.getTracer(SDK_SCOPE, SDK_VERSION), this.#local);
      this.#logger = loggerProvider.getLogger(SDK_SCOPE, SDK_VERSION);
      this.#providers = [tracerProvider, loggerProvider];
      this.#ownsProviders = true;
    }
    const { apiKey, baseUrl, timeoutMillis, captureContent } = this.#internals.options;
    this.#captureContent = captureContent;
    this.media = createMediaReader({ apiKey, baseUrl, timeoutMillis });
  }

  get #internals() {
    return transportInternals(this.transport)!;
  }

  /** The context integrations should use as an explicit parent: the innermost active span's. */
  getContext(): Context {
    return this.#local.active();
  }

  /**
   * Runs `callback` inside a new span and returns its result. The span ends once the callback
   * settles; an error escaping it is recorded on the span and rethrown.
   *
   * @example
   * ```ts
   * const answer = await svc.withSpan('chat-turn', async (span) => {
   *   span.setOutput(await answer(question));
   * }, { input: { question }, sessionId, userId });
   * ```
   */
  withSpan<T>(name: string, callback: (span: SpanHandle) => T, options?: WithSpanOptions): T {
    validateWithSpan(name, callback, options);
    const parent = options?.parentContext ?? this.#local.active();
    let ctx = parent;
    if (options?.sessionId !== undefined) ctx = ctx.setValue(SESSION_KEY, options.sessionId);
    if (options?.userId !== undefined) ctx = ctx.setValue(USER_KEY, options.userId);
    const sessionId = ctx.getValue(SESSION_KEY) as string | undefined;
    const userId = ctx.getValue(USER_KEY) as string | undefined;
    const span = this.tracer.startSpan(
      name,
      {
        kind: options?.kind ?? SpanKind.INTERNAL,
        attributes: {
          ...options?.attributes,
          ...(sessionId === undefined ? {} : { [attr.ATTR_CONVERSATION_ID]: sessionId }),
          ...(userId === undefined ? {} : { [attr.ATTR_USER_ID]: userId }),
        },
      },
      parent,
    );
    const spanContext = trace.setSpan(ctx, span);
    const handle: SpanHandle = {
      span,
      context: spanContext,
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      setInput: (value) =>
        this.#setContent(span, attr.ATTR_INPUT_VALUE, attr.ATTR_INPUT_MIME_TYPE, value, 'input'),
      setOutput: (value) =>
        this.#setContent(span, attr.ATTR_OUTPUT_VALUE, attr.ATTR_OUTPUT_MIME_TYPE, value, 'output'),
      recordFile: (options) => this.recordFile(span, options),
    };
    if (options && 'input' in options) handle.setInput(options.input);
    const fail = (error: unknown) => {
      this.recordError(span, error);
      span.end();
      throw error;
    };
    let result: T;
    try {
      result = this.#local.with(spanContext, callback, undefined, handle);
    } catch (error) {
      return fail(error);
    }
    if (result instanceof Promise) {
      return result.then((value) => {
        span.end();
        return value;
      }, fail) as T;
    }
    span.end();
    return result;
  }

  /**
   * Runs a tool inside an `execute_tool` span: its arguments and (unless `undefined`) its result
   * are recorded when content capture is on; with `mcp`, the MCP server's name is recorded.
   */
  async tool<T>(
    name: string,
    input: unknown,
    execute: () => T | Promise<T>,
    options?: { mcp?: McpClientLike },
  ): Promise<T> {
    if (typeof execute !== 'function')
      throw new TypeError(`tool execute must be a function; got ${typeof execute}`);
    const server = options?.mcp?.getServerVersion()?.name;
    return this.withSpan(
      `execute_tool ${name}`,
      async (handle) => {
        this.#setContent(handle.span, attr.ATTR_TOOL_CALL_ARGUMENTS, undefined, input, 'tool arguments');
        const result = await execute();
        this.#setContent(handle.span, attr.ATTR_TOOL_CALL_RESULT, undefined, result, 'tool result');
        return result;
      },
      {
        attributes: {
          [attr.ATTR_OPERATION_NAME]: 'execute_tool',
          [attr.ATTR_TOOL_NAME]: name,
          ...(typeof server === 'string' && server !== '' ? { [attr.ATTR_MCP_SERVER_NAME]: server } : {}),
        },
      },
    );
  }

  /**
   * Runs a model call inside a `{operation} {model}` CLIENT span with the GenAI semantic
   * conventions: operation, provider, request and response model, usage when given (never
   * estimated), and input and output messages when content capture is on.
   *
   * @example
   * ```ts
   * const reply = await svc.model({ provider: 'openai', model: 'gpt-4o-mini', input: messages }, async (call) => {
   *   const r = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
   *   call.setResponse({ model: r.model, output: toGenAiMessages(r), usage: { inputTokens: r.usage?.prompt_tokens } });
   *   return r;
   * });
   * ```
   */
  model<T>(options: ModelCallOptions, callback: (call: ModelCallHandle) => T): T {
    validateModelCall(options);
    const operation = options.operation ?? 'chat';
    return this.withSpan(
      `${operation} ${options.model}`,
      (handle) => {
        if (options.input !== undefined) {
          this.#setContent(handle.span, attr.ATTR_INPUT_MESSAGES, undefined, options.input, 'model input');
        }
        if (options.systemInstructions !== undefined) {
          this.#setContent(
            handle.span,
            'gen_ai.system_instructions',
            undefined,
            options.systemInstructions,
            'system instructions',
          );
        }
        const call: ModelCallHandle = {
          ...handle,
          setResponse: (response) => {
            handle.span.setAttributes(responseAttributes(response));
            if (response.output !== undefined) {
              this.#setContent(
                handle.span,
                attr.ATTR_OUTPUT_MESSAGES,
                undefined,
                response.output,
                'model output',
              );
            }
          },
        };
        return callback(call);
      },
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...options.attributes,
          [attr.ATTR_OPERATION_NAME]: operation,
          'gen_ai.provider.name': options.provider,
          'gen_ai.request.model': options.model,
        },
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        ...(options.userId === undefined ? {} : { userId: options.userId }),
        ...(options.parentContext === undefined ? {} : { parentContext: options.parentContext }),
      },
    );
  }

  /**
   * Records `error` on `span`: `error.type` and an ERROR status; the message and stack only when
   * content capture is on.
   */
  recordError(span: Span, error: unknown): void {
    const type = errorType(error);
    span.setAttribute(attr.ATTR_ERROR_TYPE, type);
    if (this.#captureContent && error instanceof Error) {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    } else {
      span.addEvent('exception', { 'exception.type': type });
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }

  /**
   * Emits an inference-details log record correlated with the active span (or `explicitContext`):
   * `gen_ai.input.messages` and `gen_ai.output.messages` as JSON. With content capture off, emits
   * nothing. Without an active span or explicit context, emits nothing and raises a warning issue.
   */
  recordMessages(messages: { input?: unknown; output?: unknown }, explicitContext?: Context): void {
    if (!this.#captureContent) return;
    const ctx = explicitContext ?? this.#local.active();
    if (trace.getSpan(ctx) === undefined) {
      this.#internals.accounting.raise(
        'logs',
        'warning',
        0,
        'recordMessages emitted nothing: call it inside a span or pass an explicit context',
      );
      return;
    }
    const attributes: Record<string, string> = {};
    const files: AttachedFile[] = [];
    for (const [field, name] of [
      ['input', attr.ATTR_INPUT_MESSAGES],
      ['output', attr.ATTR_OUTPUT_MESSAGES],
    ] as const) {
      const content = helperContent(messages[field], `recordMessages ${field}`);
      if ('json' in content) {
        attributes[name] = content.json;
        for (const file of this.#attachments(name, content.attachments, 'logs')) {
          files.push({ file, holder: { attribute: name } });
        }
      } else if ('problem' in content)
        this.#internals.accounting.raise('logs', 'warning', 0, content.problem);
    }
    this.#internals.files.emitting(files, () =>
      this.#logger.emit({ eventName: attr.INFERENCE_DETAILS_EVENT, context: ctx, attributes }),
    );
  }

  /**
   * Records a file the span's work read (`input`), received (`attachment`) or produced (`output`):
   * a `svc.file` event with its SHA-256, size, media type, role and name. With `upload: true` (and
   * content capture on) its bytes also upload, listed in the span's `svc.blobs` as
   * `event:svc.file:<sha256>`. A `path` file is hashed now, with bounded memory, and must stay
   * unchanged until it uploads. Never throws: what cannot be recorded raises a `warning` issue.
   *
   * @example
   * ```ts
   * await svc.withSpan('summarize', async (span) => {
   *   span.recordFile({ role: 'input', path: './report.pdf', mediaType: 'application/pdf', upload: true });
   * });
   * ```
   */
  recordFile(span: Span, options: RecordFileOptions): void {
    const { accounting, files } = this.#internals;
    const recorded = recordedFile(options);
    if ('problem' in recorded) {
      accounting.raise('traces', 'warning', 1, `recordFile recorded nothing: ${recorded.problem}`);
      return;
    }
    for (const problem of recorded.problems) accounting.raise('traces', 'warning', 1, problem);
    span.addEvent(FILE_EVENT, recorded.attributes);
    // With capture off nothing uploads: the bytes are not kept beside the span.
    if (recorded.upload !== undefined && this.#captureContent) files.addEvent(span, recorded.upload);
  }

  /** The project this client's key belongs to. Throws `SvcConnectionError`. Sends no telemetry. */
  checkConnection(): Promise<ProjectConnection> {
    const { baseUrl, apiKey, timeoutMillis } = this.#internals.options;
    return checkConnection({ baseUrl, apiKey, timeoutMillis });
  }

  /**
   * Polls the trace's receipt until the expected spans and fields are stored or the timeout
   * passes. Never flushes: flush first.
   */
  verifyTrace(traceId: string, options?: VerifyTraceOptions): Promise<TraceVerification> {
    const { baseUrl, apiKey, timeoutMillis } = this.#internals.options;
    return verifyTrace({ baseUrl, apiKey, timeoutMillis }, traceId, options);
  }

  /**
   * Exports everything recorded so far and resolves with the report. Throws `SvcExportError` when
   * records were rejected, failed, dropped or acknowledged invalidly since the previous flush.
   * Overlapping calls share the same work and result.
   */
  flush(): Promise<ExportReport> {
    this.#flushing ??= this.#flushOnce().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  /** Flushes, then shuts down the client's own providers (not an application's). */
  shutdown(): Promise<ExportReport> {
    this.#shutdown ??= (async () => {
      try {
        return await this.flush();
      } finally {
        if (this.#ownsProviders) await Promise.all(this.#providers.map((p) => p.shutdown?.()));
        await this.#internals.shutdown();
      }
    })();
    return this.#shutdown;
  }

  /** `flush()` bounded by `deadlineMillis` (default 1 s); never throws. Resolves with the report. */
  async flushSafe(deadlineMillis = DEFAULT_SAFE_DEADLINE_MILLIS): Promise<ExportReport> {
    await this.#within(this.flush(), deadlineMillis);
    return this.transport.getReport();
  }

  /**
   * `shutdown()` bounded by `deadlineMillis` (default 1 s); never throws. When the deadline
   * passes, exports still in flight are ended (their records count as failed).
   */
  async shutdownSafe(deadlineMillis = DEFAULT_SAFE_DEADLINE_MILLIS): Promise<ExportReport> {
    const finished = await this.#within(this.shutdown(), deadlineMillis);
    if (!finished) {
      this.#internals.abort();
      await this.#within(this.shutdown(), DEFAULT_SAFE_DEADLINE_MILLIS);
    }
    return this.transport.getReport();
  }

  /**
   * Whether `work` settled within `millis`; never rejects. An `SvcExportError` is in the report
   * and the issues already; any other failure (an application provider's `forceFlush`, a defect)
   * is told on diag.
   */
  async #within(work: Promise<unknown>, millis: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, millis));
    });
    try {
      return await Promise.race([
        work.then(
          () => true,
          (error: unknown) => {
            if (!SvcExportError.isInstance(error))
              reportFailure('warn', 'a safe flush or shutdown failed', error);
            return true;
          },
        ),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #flushOnce(): Promise<ExportReport> {
    // The client's own providers hold only its processors: flushing those directly lets a flush
    // wait for the uploads queued before it as long as the upload deadline allows (six export
    // timeouts plus 60 s), where `TracerProvider.forceFlush` gives up after 30 s. An
    // application's providers are flushed as the application set them up.
    const flushing = this.#ownsProviders
      ? [this.transport.spanProcessor, this.transport.logRecordProcessor]
      : this.#providers;
    await Promise.all(flushing.map((p) => p.forceFlush()));
    await this.#internals.flush();
    const { accounting } = this.#internals;
    const failures = accounting.failuresAfter(this.#reportedThrough);
    const through = accounting.failureSequence();
    const report = accounting.report();
    if (through > this.#reportedThrough) {
      this.#reportedThrough = through;
      const counts = failures.map((f) => `${f.count} ${f.kind}`).join(', ');
      throw new SvcExportError(`export failed since the previous flush: ${counts || 'see issues'}`, {
        issues: failures,
        report,
      });
    }
    return report;
  }

  #setContent(
    span: Span,
    name: string,
    mimeTypeName: string | undefined,
    value: unknown,
    field: string,
  ): void {
    if (!this.#captureContent) return;
    const content = helperContent(value, field);
    if ('json' in content) {
      span.setAttribute(name, content.json);
      if (mimeTypeName !== undefined) span.setAttribute(mimeTypeName, 'application/json');
      this.#internals.files.setAttribute(span, name, this.#attachments(name, content.attachments, 'traces'));
    } else if ('problem' in content) {
      this.#internals.accounting.raise('traces', 'warning', 0, content.problem);
    }
  }

  /**
   * The files of the valid attachments placed in the value of attribute `name`, keyed
   * `<name>#<pointer>`. Each invalid attachment (recorded as `null`) and each omitted name raises
   * a `warning` issue: the instrumentation failures of attachments.
   */
  #attachments(
    name: string,
    placed: readonly PlacedAttachment[] | undefined,
    signal: 'traces' | 'logs',
  ): FoundFile[] {
    const found: FoundFile[] = [];
    for (const { pointer, attachment } of placed ?? []) {
      const { accounting } = this.#internals;
      if (attachment.problem !== undefined) {
        accounting.raise(
          signal,
          'warning',
          1,
          `an attachment in ${name} was recorded as null: ${attachment.problem}`,
        );
      }
      if (attachment.nameProblem !== undefined) {
        accounting.raise(signal, 'warning', 1, `${attachment.nameProblem} (in ${name})`);
      }
      const file = attachmentFile(attachment, `${name}#${pointer}`);
      if (file !== undefined) found.push(file);
    }
    return found;
  }
}

/** Creates the tracing client (see {@link SvcClient}). */
export function createSvc(options: SvcOptions | ExistingProviders): SvcClient {
  return new SvcClient(options);
}
