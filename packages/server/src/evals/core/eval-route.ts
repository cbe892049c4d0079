/**
 * Registers one route of the evaluation registry: its OpenAPI entry (from the same zod schemas
 * that validate the request) and its handler. The handler side does what every evaluation route
 * shares: parameter, query and body validation (400 naming the field), the 1 MiB body limit,
 * idempotency of mutations (in the mutation's transaction), and the 4 MiB response limit.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { RouteAccess } from '../../auth/key-presets.js';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { ApiError } from '../../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../../http/error-schema.js';
import { invalidRequestError, type SchemaIssue } from '../../http/invalid-request.js';
import { inTransaction } from '../../store/sqlite-database.js';
import { EVAL_ROUTE_ACCESS, type EvalRouteId } from '../eval-route-access.js';
import type { EvalContext } from './eval-context.js';
import { MAX_EVAL_RESPONSE_BYTES } from './eval-limits.js';
import { requestFingerprint } from './idempotency-ledger.js';
import { readJsonBody } from './json-body.js';

/** Statuses an evaluation route documents besides 200 and the authentication errors. */
type ErrorStatus = 400 | 404 | 409 | 413 | 415 | 422 | 503;

/** What a handler receives. */
export interface RouteInput<P, Q, B, X = undefined> {
  params: P;
  query: Q;
  body: B;
  /** What `prepare` resolved (asynchronous work done before the transaction). */
  prepared: X;
  /** The origin links in the answer are built on: the server's public origin, or the request's. */
  origin: string;
  /** Runs `work` once the mutation's transaction committed (for example, waking a worker). */
  afterCommit(work: () => void): void;
}

/** One route: documentation, schemas and a synchronous handler. */
export interface EvalRouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, X = undefined> {
  /** The route's ID in the route table: a row of `EVAL_ROUTE_ACCESS` unless `access` is given. */
  id: EvalRouteId | (string & {});
  /** The route's row when it is not a row of `EVAL_ROUTE_ACCESS` (a feature built on the registry: scenarios). */
  access?: RouteAccess;
  /** The OpenAPI tag; default `Evaluation`. */
  tag?: string;
  /**
   * `none`: a mutation that is safe to repeat and takes no Idempotency-Key (nothing is kept for
   * it), because its answer is the current state (a worker's poll). Default: the key is required.
   */
  idempotency?: 'none';
  /**
   * Validates the JSON body instead of `body` (which still documents it): for a route that answers
   * every problem of the body at once rather than the first.
   */
  validateBody?(json: unknown): z.output<B>;
  /**
   * Shapes the answer sent, after the idempotency ledger: the ledger keeps the answer as handled,
   * and a replay is shaped again (for example, a credential that is derived, never stored).
   */
  present?(answer: unknown, origin: string): unknown;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the 200 answer. */
  response: z.ZodType;
  /** Documented error answers, status → when. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** True for page routes: a too-large answer tells the caller to lower `limit`. */
  paged?: boolean;
  /**
   * Asynchronous work before the answer (for example, storing file bytes), run outside the
   * transaction and skipped for an idempotent replay. Its result is `prepared`.
   */
  prepare?(input: { params: z.output<P>; query: z.output<Q>; body: z.output<B>; origin: string }): Promise<X>;
  /**
   * Produces the answer. Mutations run inside one write transaction together with the
   * idempotency record: a thrown error rolls everything back. A read (GET) may answer with a
   * promise (for example, after checking stored bytes); a mutation must answer synchronously.
   */
  handle(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, X>): unknown;
}

/** The header carrying a mutation's idempotency key. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters');

function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Validates `value` against `schema`; a failure is answered as {@link invalidRequestError} says
 * (400 naming the field and the rule, or 422 for a rule the OpenAPI document cannot state).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidRequestError(result.error.issues as SchemaIssue[], where);
}

function encodeAnswer(value: unknown, paged: boolean): string {
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text, 'utf8') > MAX_EVAL_RESPONSE_BYTES) {
    throw new ApiError(
      422,
      'response_too_large',
      paged
        ? 'This page would be larger than 4 MiB, the largest evaluation response; request a smaller page (lower limit, for example limit=1) and follow nextCursor.'
        : 'The answer would be larger than 4 MiB, the largest evaluation response.',
    );
  }
  return text;
}

function jsonResponse(text: string, status: number, replayed = false): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (replayed) headers['idempotent-replayed'] = 'true';
  return new Response(text, { status, headers });
}

/** The row of `spec`'s route. @throws Error for an ID of no row (a programming error). */
function accessOf(spec: { id: string; access?: RouteAccess | undefined }): RouteAccess {
  const access = spec.access ?? (EVAL_ROUTE_ACCESS as Record<string, RouteAccess>)[spec.id];
  if (access === undefined) throw new Error(`no route table row for ${spec.id}`);
  return access;
}

function documentRoute(
  app: OpenAPIHono<GuardedEnv>,
  spec: EvalRouteSpec<z.ZodType, z.ZodType, z.ZodType, unknown>,
) {
  const access = accessOf(spec);
  const mutation = access.method === 'POST';
  const keyed = mutation && spec.idempotency !== 'none';
  const errors: Partial<Record<number, string>> = { ...spec.errors };
  if (mutation) {
    errors[400] ??= keyed
      ? 'Invalid request body or parameters, or a missing Idempotency-Key header'
      : 'Invalid request body or parameters';
    if (keyed) {
      errors[409] = `${errors[409] ? `${errors[409]}; or t` : 'T'}he idempotency key was used before with another request (idempotency_key_reused)`;
    }
    errors[413] = 'The request body is over 1 MiB';
    errors[415] = 'The request body is not JSON';
    errors[422] ??=
      'The body keeps to this schema but breaks a rule JSON Schema cannot state (invalid_request, naming the field: for example a minimum over its maximum, a repeated name or ID, a field another field requires); or the answer would be over 4 MiB (response_too_large)';
  }
  errors[422] ??= 'The answer would be over 4 MiB (response_too_large)';
  const responses: Record<string, unknown> = {
    200: { description: 'Success', content: { 'application/json': { schema: spec.response } } },
    ...AUTH_ERROR_RESPONSES,
  };
  for (const [status, description] of Object.entries(errors)) {
    if (description !== undefined) responses[status] = errorResponseDoc(description);
  }
  const request: Record<string, unknown> = {};
  if (spec.params) request.params = spec.params;
  if (spec.query) request.query = spec.query;
  if (keyed) {
    request.headers = z.object({
      'idempotency-key': IdempotencyKeySchema.openapi({
        description:
          'Required on every mutation. The same key with the same request returns the first answer; with another request, 409.',
      }),
    });
  }
  if (spec.body) request.body = { required: true, content: { 'application/json': { schema: spec.body } } };
  app.openAPIRegistry.registerPath({
    method: mutation ? 'post' : 'get',
    path: access.path,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag ?? 'Evaluation'],
    security: [{ bearer: [] }],
    request: request as never,
    responses: responses as never,
  });
}

/** Registers `spec` on `app`: its OpenAPI entry and its handler. */
export function registerEvalRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  X = undefined,
>(app: OpenAPIHono<GuardedEnv>, context: EvalContext, spec: EvalRouteSpec<P, Q, B, X>): void {
  const publicOrigin = context.publicOrigin;
  const access = accessOf(spec);
  const mutation = access.method === 'POST';
  const present = spec.present ?? ((answer: unknown, _origin: string) => answer);
  documentRoute(app, spec as unknown as EvalRouteSpec<z.ZodType, z.ZodType, z.ZodType, unknown>);
  app.on(access.method, honoPath(access.path), async (c) => {
    const params = spec.params ? parseInput(spec.params, c.req.param(), '') : ({} as z.output<P>);
    const query = spec.query ? parseInput(spec.query, c.req.query(), '') : ({} as z.output<Q>);
    const origin = publicOrigin ?? new URL(c.req.url).origin;
    if (!mutation) {
      const answer = await spec.handle({
        params,
        query,
        body: undefined as z.output<B>,
        prepared: undefined as X,
        origin,
        afterCommit: (work) => work(),
      });
      return jsonResponse(encodeAnswer(present(answer, origin), spec.paged === true), 200);
    }
    const validate = (json: unknown): z.output<B> =>
      spec.validateBody !== undefined
        ? spec.validateBody(json)
        : spec.body
          ? parseInput(spec.body, json, '')
          : (undefined as z.output<B>);
    if (spec.idempotency === 'none') {
      const json = await readJsonBody(c.req.raw, c.env?.incoming);
      const body = validate(json);
      const committed: Array<() => void> = [];
      const answer = inTransaction(context.db, () =>
        spec.handle({
          params,
          query,
          body,
          prepared: undefined as X,
          origin,
          afterCommit: (work) => committed.push(work),
        }),
      );
      for (const work of committed) work();
      return jsonResponse(encodeAnswer(present(answer, origin), false), 200);
    }
    const header = c.req.header(IDEMPOTENCY_HEADER);
    if (header === undefined) {
      throw new ApiError(
        400,
        'invalid_request',
        'Every evaluation mutation needs an Idempotency-Key header: a new key for a new request, the same key to retry it.',
      );
    }
    const key = parseInput(IdempotencyKeySchema, header, 'Idempotency-Key header');
    const json = await readJsonBody(c.req.raw, c.env?.incoming);
    const body = validate(json);
    const fingerprint = requestFingerprint(access.method, new URL(c.req.url).pathname, json);
    const committed: Array<() => void> = [];
    // Asynchronous preparation runs before the transaction, and not when the key has an answer.
    const prepared =
      spec.prepare !== undefined && context.ledger.find(key) === undefined
        ? await spec.prepare({ params, query, body, origin })
        : (undefined as X);
    const outcome = inTransaction(context.db, () => {
      const kept = context.ledger.find(key);
      if (kept !== undefined) {
        if (kept.fingerprint !== fingerprint) {
          throw new ApiError(
            409,
            'idempotency_key_reused',
            'This Idempotency-Key was used before with another request; use a new key for a new request, and the same key only to retry the same request.',
          );
        }
        return { text: kept.body, status: kept.status, replayed: true };
      }
      const answer = spec.handle({
        params,
        query,
        body,
        prepared,
        origin,
        afterCommit: (work) => committed.push(work),
      });
      const text = encodeAnswer(answer, false);
      context.ledger.save(key, { fingerprint, status: 200, body: text }, context.now());
      return { text, status: 200, replayed: false };
    });
    for (const work of committed) work();
    const text =
      spec.present === undefined
        ? outcome.text
        : encodeAnswer(present(JSON.parse(outcome.text), origin), false);
    return jsonResponse(text, outcome.status, outcome.replayed);
  });
}
