/**
 * The reference service as a fetch handler (Hono). Route tests call it in-process with
 * `app.request()`; `startServer` serves it over HTTP.
 * @module
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { KeyRing } from './auth/key-ring.js';
import { type GuardedEnv, routeGuard } from './auth/route-guard.js';
import type { EvalRegistry } from './evals/eval-registry.js';
import { registerEvalsRoutes } from './evals/register-evals-routes.js';
import type { FaultInjector } from './faults/fault-injector.js';
import { ApiError, errorResponse } from './http/api-error.js';
import { admitBodies } from './http/body-admission.js';
import { type BodyBudget, processBodyBudget } from './http/body-budget.js';
import { invalidRequestError, type SchemaIssue } from './http/invalid-request.js';
import { allowedMethods, methodNotAllowed } from './http/method-not-allowed.js';
import { RequestAbortedError } from './http/request-aborted-error.js';
import { type RequestLogSink, requestLog } from './http/request-log.js';
import { routePattern } from './http/route-pattern.js';
import { describeUnhandledError } from './http/unhandled-error.js';
import type { TraceStore } from './ingest/trace-store.js';
import { registerMcpRoute } from './mcp/mcp-route.js';
import type { Project } from './project/project.js';
import type { ReadModel } from './read/read-model.js';
import { registerReadRoutes } from './read/read-routes.js';
import { ROUTE_ACCESS, type RouteId } from './route-table.js';
import type { MediaRouteOptions } from './routes/media-route-options.js';
import { registerMediaRoutes } from './routes/media-routes.js';
import { registerOtlpRoutes } from './routes/otlp-routes.js';
import { registerProjectsRoute } from './routes/projects-route.js';
import { registerReceiptRoute } from './routes/receipt-route.js';
import { registerScenarioRoutes } from './scenarios/routes/scenario-routes.js';
import { registerWorldMcpRoute } from './scenarios/routes/world-mcp-route.js';
import { registerWorldRoutes } from './scenarios/routes/world-routes.js';
import type { Scenarios } from './scenarios/scenarios.js';
import type { ViewerSessions } from './viewer/session/viewer-sessions.js';
import { createViewer } from './viewer/viewer-app.js';

/** What the app serves and with what. */
export interface AppOptions {
  traceStore: TraceStore;
  project: Project;
  keyRing: KeyRing;
  /** Origin used in links such as `traceUrl`; the request's own origin when omitted. */
  publicOrigin?: string;
  /** The media files (storage, links and their lifetimes); links use `publicOrigin`. */
  media: Omit<MediaRouteOptions, 'publicOrigin'>;
  /** Enables fault injection (tests only). */
  faults?: FaultInjector<RouteId>;
  /** The evaluation registry; its routes (`/api/v1/evals/…`) are served when given. */
  evals?: EvalRegistry;
  /**
   * Scenarios (built on `evals`): their registry routes, the worlds' tools (`/api/v1/worlds/…`,
   * `/mcp/worlds/{worldId}`), their MCP tools and viewer pages, when given with `evals`.
   */
  scenarios?: Scenarios;
  /** The read model; the read API (`/api/v1/traces…`) and the MCP tool server (`/mcp`) are served when given. */
  readModel?: ReadModel;
  /** Receives one entry per request (the request log); none when omitted. */
  requestLog?: RequestLogSink;
  /** Receives the text of each unhandled error; `console.error` when omitted. */
  errorLog?: (text: string) => void;
  /** The budget of request bodies held in memory; the process's shared one when omitted. */
  bodyBudget?: BodyBudget;
  /**
   * The viewer's sessions; the viewer (`/traces`, `/login`, …) is served when given with
   * `readModel`. Its routes take a browser session, not a Bearer key, so they are not rows of
   * the route table (`viewer/viewer-app.ts` lists them).
   */
  viewerSessions?: ViewerSessions;
}

/** The service's Hono application. */
export type SvcApp = OpenAPIHono<GuardedEnv>;

/** Hono path syntax of a `{param}` path. */
function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Builds the service's fetch handler. */
export function createApp(options: AppOptions): SvcApp {
  const app = new OpenAPIHono<GuardedEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidRequestError(result.error.issues as SchemaIssue[]);
    },
  });
  const errorLog = options.errorLog ?? ((text: string) => console.error(text));
  if (options.requestLog) app.use('*', requestLog(options.requestLog));
  app.use('*', admitBodies(options.bodyBudget ?? processBodyBudget()));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(error);
    // The client went away mid-body: nobody reads this answer, and the server did nothing wrong.
    if (error instanceof RequestAbortedError) {
      return errorResponse(new ApiError(400, 'invalid_request', error.message));
    }
    // Hono's request validators throw 400 for a body they cannot parse (e.g. malformed JSON).
    if (error instanceof HTTPException && error.status === 400) {
      return errorResponse(
        new ApiError(400, 'invalid_request', 'The request body is malformed (not valid JSON).'),
      );
    }
    // …and 415 for a body whose content type the route does not take.
    if (error instanceof HTTPException && error.status === 415) {
      return errorResponse(
        new ApiError(
          415,
          'unsupported_media_type',
          'This route takes a JSON body: send Content-Type: application/json.',
        ),
      );
    }
    errorLog(describeUnhandledError(error, c.req.method, routePattern(c)));
    return errorResponse(new ApiError(500, 'internal', 'Internal error.'));
  });
  // No handler for this method and path: 405 with `Allow` when the route table knows the path.
  const allowOf = allowedMethods(Object.values(ROUTE_ACCESS));
  app.notFound((c) => {
    const allow = allowOf(new URL(c.req.url).pathname);
    if (allow !== undefined) return errorResponse(methodNotAllowed(c.req.method, allow));
    return errorResponse(new ApiError(404, 'not_found', 'No such route.'));
  });

  for (const [route, access] of Object.entries(ROUTE_ACCESS) as [RouteId, (typeof ROUTE_ACCESS)[RouteId]][]) {
    app.on(access.method, honoPath(access.path), routeGuard(route, access, options.keyRing, options.faults));
  }
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  registerProjectsRoute(app, options.project);
  registerOtlpRoutes(app, options.traceStore);
  registerReceiptRoute(app, options.traceStore, options.publicOrigin);
  const media: MediaRouteOptions = {
    ...options.media,
    ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
  };
  registerMediaRoutes(app, media);
  if (options.evals) registerEvalsRoutes(app, options.evals, options.publicOrigin, media);
  // After the registry's: its routes take the public origin the registry's context was given.
  if (options.evals && options.scenarios) {
    registerScenarioRoutes(app, options.scenarios);
    registerWorldRoutes(app, options.scenarios);
    registerWorldMcpRoute(app, options.keyRing, options.scenarios, options.publicOrigin);
  }
  if (options.readModel) {
    registerReadRoutes(app, options.readModel);
    // The MCP tool server (`/mcp`) reads through the same read model and registry.
    registerMcpRoute(app, options.keyRing, {
      readModel: options.readModel,
      traceStore: options.traceStore,
      files: options.media.files,
      evals: options.evals,
      scenarios: options.evals ? options.scenarios : undefined,
      publicOrigin: options.publicOrigin,
    });
  }
  if (options.readModel && options.viewerSessions) {
    app.route(
      '/',
      createViewer({
        readModel: options.readModel,
        files: options.media.files,
        keyRing: options.keyRing,
        sessions: options.viewerSessions,
        ...(options.evals && options.scenarios ? { scenarios: options.scenarios } : {}),
        evals: options.evals,
        ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
      }),
    );
  }
  app.doc31(ROUTE_ACCESS.openapi.path, {
    openapi: '3.1.0',
    info: {
      title: 'svc reference service',
      version: '0.1.0',
      description:
        'Every route takes Authorization: Bearer <project key>. Errors are JSON { error: { code, message } }.',
    },
  });
  return app;
}
