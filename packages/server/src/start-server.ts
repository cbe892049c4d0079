/**
 * Starts the reference service over HTTP on an embedded store.
 * @module
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';

type FetchCallback = Parameters<typeof serve>[0]['fetch'];

import { createApp, type SvcApp } from './app.js';
import { createEvalRegistry, type EvalRegistry } from './evals/eval-registry.js';
import type { JudgeModelOption } from './evals/judge/judge-worker.js';
import type { TargetLookup } from './evals/managed/target-address-policy.js';
import { FaultInjector } from './faults/fault-injector.js';
import { ApiError, errorResponse } from './http/api-error.js';
import { BodyBudget } from './http/body-budget.js';
import { formatRequestLogLine, type RequestLogSink } from './http/request-log.js';
import { SqliteTraceStore } from './ingest/sqlite-trace-store.js';
import type { TraceStore } from './ingest/trace-store.js';
import {
  DEFAULT_DOWNLOAD_LINK_TTL_MILLIS,
  DEFAULT_UPLOAD_LINK_TTL_MILLIS,
  MAX_LINK_TTL_MILLIS,
  MAX_OTLP_BODY_BYTES,
} from './limits.js';
import { loadLinkSecret } from './media/link-secret.js';
import { BLOBS_DIRECTORY, LocalBlobStore } from './media/local-blob-store.js';
import { MediaLinks } from './media/media-links.js';
import { TraceFiles } from './media/trace-files.js';
import { bootstrapProject } from './project/bootstrap-project.js';
import type { Project, ProjectKeys } from './project/project.js';
import { ReadModel } from './read/read-model.js';
import type { RouteId } from './route-table.js';
import { createScenarios, type Scenarios } from './scenarios/scenarios.js';
import { MIGRATIONS } from './schema-migrations.js';
import { DataDirLock, LOCK_FILE, LOCK_HOLDER_FILE } from './store/data-dir-lock.js';
import { openDatabase } from './store/sqlite-database.js';
import { loginLink } from './viewer/session/login-link.js';
import { ViewerSessions } from './viewer/session/viewer-sessions.js';

/** The database file inside the data directory. */
export const DATABASE_FILE = 'svc.sqlite';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * Directory of the embedded store. A restart on the same directory keeps the project, its keys
   * and every stored trace. Without one, storage lives in a temporary directory removed on close.
   */
  dataDir?: string;
  /** Enables {@link RunningServer.faults} for tests. Never reachable over HTTP. */
  faultInjection?: boolean;
  /**
   * Lifetime of upload (PUT) links in ms; default 15 minutes. `0` makes links that are expired
   * already (for tests).
   */
  uploadLinkTtlMillis?: number;
  /** Lifetime of download links in ms; default 5 minutes. `0` makes links that are expired already. */
  downloadLinkTtlMillis?: number;
  /**
   * The model hosted judge jobs call: an AI SDK language model (tests use `MockLanguageModelV4`
   * from `ai/test`), or a function choosing one by the judge's `{ provider, model }`. Without
   * one, judge jobs end in state `error` (`judge_not_configured`).
   */
  judgeModel?: JudgeModelOption;
  /** Hosted judge jobs the project may create (its budget); integer ≥ 0, default 10000. */
  judgeJobLimit?: number;
  /**
   * Deliver to managed targets at loopback, private, link-local and other non-public addresses.
   * Off by default: such targets are refused when registered and at every connection (a target
   * URL is chosen by a Read-and-write key, and the server would reach its own network for it).
   * For local development and tests whose target runs on this machine.
   */
  allowPrivateTargets?: boolean;
  /**
   * How managed-target host names are resolved: every address of a name. Default: the system
   * resolver (`dns.lookup`). Tests pass one to simulate DNS answers (for example rebinding).
   */
  targetLookup?: TargetLookup;
  /**
   * The request log: one line per request (time, method, route pattern, status, duration, body
   * sizes; never a key, a query value or content). `true` writes lines to stdout; a function
   * receives each entry (`formatRequestLogLine` makes the line). Default off; `svc serve` turns
   * it on.
   */
  requestLog?: boolean | RequestLogSink;
  /** Receives the text of each unhandled error (type, message, stack; sanitized). Default: stderr. */
  errorLog?: (text: string) => void;
  /**
   * Scenarios: how long a trial's world takes calls (`trialTtlMillis`, default one hour; `0` makes
   * worlds that are closed already, for tests), how recently a local agent must have polled to be
   * live (`liveMillis`, default 30 s, also the lease of a launch), the poll interval told to
   * workers (`pollIntervalMillis`, default 2 s), and the clock of those (`now`, ms since the epoch;
   * tests inject one).
   */
  scenarios?: {
    trialTtlMillis?: number;
    liveMillis?: number;
    pollIntervalMillis?: number;
    now?: () => number;
  };
  /**
   * Bytes of request bodies held in memory at once by this server; past it, requests are
   * answered 503 with `Retry-After`. Without it, the servers of a process share one budget of
   * 128 MiB. An integer of at least 64 MiB (the largest body).
   */
  bodyBudgetBytes?: number;
  /**
   * The clock of the viewer's sessions and login links (ms since the epoch); `Date.now` when
   * omitted. Tests move it to expire a session or a link.
   */
  viewerClock?: () => number;
}

/** A started server. */
export interface RunningServer {
  /** `http://host:port`. */
  origin: string;
  project: Project;
  /** Plaintext keys of each preset. */
  keys: ProjectKeys;
  /** The data directory in use. */
  dataDir: string;
  /** The fetch handler, for in-process requests. */
  app: SvcApp;
  /** The embedded trace store (read access for tests and tools). */
  traceStore: TraceStore;
  /** The media files of traces: what each holds, and `fileStates(traceId, spanId)`. */
  files: TraceFiles;
  /** The read model (search, trace outlines, span details) the read API and viewer serve. */
  readModel: ReadModel;
  /** Present when started with `faultInjection: true`. */
  faults?: FaultInjector<RouteId>;
  /**
   * A new one-time login link to the viewer: opened once within 15 minutes, it logs that browser
   * in (a Read session) and lands on `path` (a viewer page: `/traces` by default,
   * `/traces/{traceId}` with `?span=`, `/experiments`, `/experiments/{experimentId}`). It carries a
   * random token, never a key.
   *
   * @example
   * ```ts
   * console.log(`Viewer: ${server.viewerLoginLink(`/traces/${traceId}`)}`);
   * ```
   */
  viewerLoginLink(path?: string): string;
  /**
   * Stops listening, lets requests in flight finish (up to 5 s, then drops their connections),
   * closes the store and removes a temporary data directory.
   */
  close(): Promise<void>;
}

function validateOptions(options: StartServerOptions): void {
  const { port } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new TypeError(`port must be an integer from 0 to 65535; got ${String(port)}`);
  }
  if (options.host !== undefined && (typeof options.host !== 'string' || options.host.trim() === '')) {
    throw new TypeError(`host must be a nonblank string; got ${JSON.stringify(options.host)}`);
  }
  if (options.dataDir !== undefined && (typeof options.dataDir !== 'string' || options.dataDir === '')) {
    throw new TypeError(`dataDir must be a nonempty path; got ${JSON.stringify(options.dataDir)}`);
  }
  for (const name of ['uploadLinkTtlMillis', 'downloadLinkTtlMillis'] as const) {
    const ttl = options[name];
    if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_LINK_TTL_MILLIS)) {
      throw new TypeError(`${name} must be an integer from 0 to ${MAX_LINK_TTL_MILLIS}; got ${String(ttl)}`);
    }
  }
  const { judgeJobLimit, judgeModel } = options;
  if (judgeJobLimit !== undefined && (!Number.isSafeInteger(judgeJobLimit) || judgeJobLimit < 0)) {
    throw new TypeError(`judgeJobLimit must be an integer of at least 0; got ${String(judgeJobLimit)}`);
  }
  if (options.allowPrivateTargets !== undefined && typeof options.allowPrivateTargets !== 'boolean') {
    throw new TypeError(`allowPrivateTargets must be a boolean; got ${typeof options.allowPrivateTargets}`);
  }
  if (options.targetLookup !== undefined && typeof options.targetLookup !== 'function') {
    throw new TypeError(
      `targetLookup must be a function resolving a host name to its addresses; got ${typeof options.targetLookup}`,
    );
  }
  const { requestLog, errorLog, bodyBudgetBytes } = options;
  if (requestLog !== undefined && typeof requestLog !== 'boolean' && typeof requestLog !== 'function') {
    throw new TypeError(`requestLog must be a boolean or a function; got ${typeof requestLog}`);
  }
  if (errorLog !== undefined && typeof errorLog !== 'function') {
    throw new TypeError(`errorLog must be a function; got ${typeof errorLog}`);
  }
  if (
    bodyBudgetBytes !== undefined &&
    (!Number.isSafeInteger(bodyBudgetBytes) || bodyBudgetBytes < MAX_OTLP_BODY_BYTES)
  ) {
    throw new TypeError(
      `bodyBudgetBytes must be an integer of at least ${MAX_OTLP_BODY_BYTES} (the largest request body); got ${String(bodyBudgetBytes)}`,
    );
  }
  const scenarioOptions = options.scenarios ?? {};
  for (const name of ['trialTtlMillis', 'liveMillis', 'pollIntervalMillis'] as const) {
    const value = scenarioOptions[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new TypeError(`scenarios.${name} must be an integer of at least 0; got ${String(value)}`);
    }
  }
  if (scenarioOptions.now !== undefined && typeof scenarioOptions.now !== 'function') {
    throw new TypeError(
      `scenarios.now must be a function returning ms since the epoch; got ${typeof scenarioOptions.now}`,
    );
  }
  const modelKinds = ['function', 'object', 'string'];
  if (
    judgeModel !== undefined &&
    (!modelKinds.includes(typeof judgeModel) || judgeModel === null || judgeModel === '')
  ) {
    throw new TypeError(
      `judgeModel must be an AI SDK language model (or model ID), or a function returning one; got ${judgeModel === null ? 'null' : typeof judgeModel}`,
    );
  }
}

function originOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function listen(fetch: FetchCallback, host: string, port: number): Promise<Server> {
  return new Promise((resolveListen, reject) => {
    const server = serve({ fetch, hostname: host, port }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolveListen(server);
    });
  });
}

function requestLogSink(option: StartServerOptions['requestLog']): RequestLogSink | undefined {
  if (option === true) return (entry) => process.stdout.write(`${formatRequestLogLine(entry)}\n`);
  return option === false ? undefined : option;
}

/** The answer to a request that arrives while the server is starting (listening comes first). */
function starting(): Response {
  return errorResponse(
    new ApiError(503, 'unavailable', 'The server is starting; retry after the Retry-After delay.', {
      'retry-after': '1',
    }),
  );
}

/**
 * Removes what a failed first start made in `dataDir` (every entry not in `before`, the lock's
 * files aside), so that it leaves no project or keys behind. A start on a data directory that
 * already held a store leaves everything.
 */
function removeNewStore(dataDir: string, before: ReadonlySet<string>): void {
  if (before.has(DATABASE_FILE)) return;
  for (const entry of readdirSync(dataDir)) {
    if (before.has(entry) || entry === LOCK_FILE || entry === LOCK_HOLDER_FILE) continue;
    rmSync(join(dataDir, entry), { recursive: true, force: true });
  }
}

/** How long `close()` lets requests in flight finish before dropping their connections. */
const CLOSE_GRACE_MILLIS = 5_000;

/** Stops accepting, closes idle connections, lets requests in flight finish within the grace period. */
function stopListening(server: Server): Promise<void> {
  return new Promise((done) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MILLIS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      done();
    });
    server.closeIdleConnections();
  });
}

/**
 * Starts the reference service.
 *
 * @example
 * ```ts
 * const server = await startServer({ dataDir: '.svc-data' });
 * console.log(server.origin, server.keys.tracing);
 * await server.close();
 * ```
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  validateOptions(options);
  const host = options.host ?? '127.0.0.1';
  const temporary = options.dataDir === undefined;
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'svc-data-')) : resolve(options.dataDir!);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // One server per data directory: a second start is refused here, before it changes anything.
  const lock = await DataDirLock.acquire(dataDir);
  const before = new Set(readdirSync(dataDir));
  const databasePath = join(dataDir, DATABASE_FILE);
  let server: Server | undefined;
  let db: ReturnType<typeof openDatabase> | undefined;
  let traceStore: SqliteTraceStore | undefined;
  let evals: EvalRegistry | undefined;
  try {
    // Listening comes first: a start that cannot listen (the port is taken) makes no project or
    // keys. The app's links need the origin; until the app is built, requests are answered 503.
    let app: SvcApp | undefined;
    server = await listen(
      (request, env) => (app === undefined ? starting() : app.fetch(request, env)),
      host,
      options.port ?? 0,
    );
    const origin = originOf(host, (server.address() as AddressInfo).port);
    db = openDatabase(databasePath, MIGRATIONS);
    const { project, keys, keyRing } = await bootstrapProject(db, dataDir);
    const linkSecret = await loadLinkSecret(dataDir);
    const faults = options.faultInjection ? new FaultInjector<RouteId>() : undefined;
    traceStore = new SqliteTraceStore(db, databasePath);
    const files = new TraceFiles(
      traceStore.fileRecords(project.id),
      new LocalBlobStore(join(dataDir, BLOBS_DIRECTORY)),
    );
    const readModel = new ReadModel(db, files, () => traceStore!.catchUpIndex());
    const media = {
      files,
      links: new MediaLinks(linkSecret),
      uploadLinkTtlMillis: options.uploadLinkTtlMillis ?? DEFAULT_UPLOAD_LINK_TTL_MILLIS,
      downloadLinkTtlMillis: options.downloadLinkTtlMillis ?? DEFAULT_DOWNLOAD_LINK_TTL_MILLIS,
      // No span of that ID is not an error here: the route then says the trace has no such file.
      inlineFiles: async (traceId: string, spanId: string, sha256: string) => {
        const file = await readModel.inlineFile(traceId, spanId, sha256).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return undefined;
          throw error;
        });
        return file && { bytes: file.bytes, contentType: file.contentType, name: file.name ?? null };
      },
    };
    evals = createEvalRegistry({
      db,
      traceStore,
      traceFiles: files,
      judgeModel: options.judgeModel,
      judgeJobLimit: options.judgeJobLimit,
      machineCredential: keys.machine,
      allowPrivateTargets: options.allowPrivateTargets,
      targetLookup: options.targetLookup,
      caseFiles: {
        files,
        linkSecret,
        uploadLinkTtlMillis: media.uploadLinkTtlMillis,
        downloadLinkTtlMillis: media.downloadLinkTtlMillis,
      },
    });
    const scenarios: Scenarios = createScenarios({
      registry: evals,
      tokenSecret: linkSecret,
      now: options.scenarios?.now,
      trialTtlMillis: options.scenarios?.trialTtlMillis,
      liveMillis: options.scenarios?.liveMillis,
      pollIntervalMillis: options.scenarios?.pollIntervalMillis,
    });
    const viewerSessions = new ViewerSessions(options.viewerClock);
    const requestLog = requestLogSink(options.requestLog);
    app = createApp({
      traceStore,
      project,
      keyRing,
      publicOrigin: origin,
      media,
      evals,
      scenarios,
      readModel,
      viewerSessions,
      ...(faults ? { faults } : {}),
      ...(requestLog ? { requestLog } : {}),
      ...(options.errorLog ? { errorLog: options.errorLog } : {}),
      ...(options.bodyBudgetBytes === undefined
        ? {}
        : { bodyBudget: new BodyBudget(options.bodyBudgetBytes) }),
    });
    await lock.listening(origin);
    const listening = server;
    const database = db;
    let closed: Promise<void> | undefined;
    return {
      origin,
      project,
      keys,
      dataDir,
      app,
      traceStore,
      files,
      readModel,
      ...(faults ? { faults } : {}),
      viewerLoginLink(path?: string) {
        if (path !== undefined && !/^\/(?:traces|experiments|scenarios)(\/|\?|$)/.test(path)) {
          throw new TypeError(
            `path must be a viewer page (/traces…, /experiments…, /scenarios…); got ${JSON.stringify(path)}`,
          );
        }
        return loginLink(viewerSessions, origin, path);
      },
      close() {
        closed ??= (async () => {
          // Requests held by an open-ended injected hang go on, so closing never waits on them.
          faults?.clear();
          await stopListening(listening);
          await evals!.close();
          await traceStore!.close();
          database.close();
          lock.release();
          if (temporary) rmSync(dataDir, { recursive: true, force: true });
        })();
        return closed;
      },
    };
  } catch (error) {
    server?.close();
    await evals?.close();
    await traceStore?.close();
    db?.close();
    if (temporary) {
      lock.release();
      rmSync(dataDir, { recursive: true, force: true });
    } else {
      removeNewStore(dataDir, before);
      lock.release();
    }
    throw error;
  }
}
