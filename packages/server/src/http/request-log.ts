/**
 * The request log: one entry per request, once its answer has been sent (or the client has gone
 * away): time, method, route pattern, status, duration and body sizes, and the error code of an
 * error answer. Never a key, a query value (a signed link's `signature`), a path's own values or
 * any content: the route is the pattern of the route table.
 *
 * Written by hand: Hono's `logger` middleware prints the request's path (which may hold IDs) in
 * two lines per request, without error codes, sizes or a sink of one's own.
 * @module
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';
import { bodyAccountOf } from './body-admission.js';
import { declaredLength } from './read-request-body.js';
import { RequestAbortedError } from './request-aborted-error.js';
import { routePattern } from './route-pattern.js';

/** Status logged for a request whose client closed the connection before the answer was sent whole. */
export const CLIENT_CLOSED_REQUEST = 499;

/** One request, as the request log records it. */
export interface RequestLogEntry {
  /** When the request arrived (ISO 8601, UTC). */
  time: string;
  method: string;
  /** The route pattern that answered (`/api/v1/traces/{traceId}/receipt`), or `-` when no route matched. */
  route: string;
  /** The status answered; 499 when the client closed the connection before the answer was sent whole. */
  status: number;
  /** From the request's arrival to its answer sent (ms, to 0.1). */
  durationMs: number;
  /** Bytes of the request body: its `Content-Length`, else the bytes read. */
  requestBytes: number;
  /**
   * Bytes sent for the answer over HTTP: status line, headers and body, like nginx's
   * `$bytes_sent` (in-process, the body's `Content-Length` when declared). Absent when the
   * client went away first.
   */
  responseBytes: number | undefined;
  /** The error code of an error answer (`unauthorized`, `payload_too_large`, …), when it has one. */
  error?: string;
}

/** Receives each entry of the request log. */
export type RequestLogSink = (entry: RequestLogEntry) => void;

/**
 * The entry as one line:
 * `2026-01-05T10:00:00.000Z POST /api/v1/otlp/v1/traces 200 12.3ms in=1048576 out=2`,
 * with ` error=<code>` after an error answer.
 */
export function formatRequestLogLine(entry: RequestLogEntry): string {
  const line = `${entry.time} ${entry.method} ${entry.route} ${entry.status} ${entry.durationMs}ms in=${entry.requestBytes} out=${entry.responseBytes ?? '-'}`;
  return entry.error === undefined ? line : `${line} error=${entry.error}`;
}

function errorCode(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  if (error instanceof ApiError) return error.code;
  return error instanceof RequestAbortedError ? undefined : 'internal';
}

function deliver(sink: RequestLogSink, entry: RequestLogEntry): void {
  try {
    sink(entry);
  } catch (error) {
    // A sink of the embedding application must not take the server down with it.
    console.error(
      `svc server: the request log sink failed: ${error instanceof Error ? error.name : typeof error}`,
    );
  }
}

/** Middleware writing one {@link RequestLogEntry} per request to `sink`. Put it first. */
export function requestLog(sink: RequestLogSink): MiddlewareHandler<{ Bindings: Partial<HttpBindings> }> {
  return async (c, next) => {
    const time = new Date().toISOString();
    const started = performance.now();
    // The connection's count of bytes sent before this answer (answers on one connection go in turn).
    const socket = c.env?.incoming?.socket;
    const sentBefore = socket?.bytesWritten ?? 0;
    await next();
    const route = routePattern(c as Context);
    const entry = (status: number, responseBytes: number | undefined): RequestLogEntry => {
      const error = status >= 400 ? errorCode(c.error) : undefined;
      return {
        time,
        method: c.req.method,
        route,
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        requestBytes:
          declaredLength(c.req.header('content-length')) ??
          bodyAccountOf(c.req.raw, c.env?.incoming)?.received ??
          0,
        responseBytes,
        ...(error === undefined ? {} : { error }),
      };
    };
    const outgoing = c.env?.outgoing;
    if (outgoing === undefined || socket === undefined) {
      // In-process (`app.request()`): the answer is the response handed back.
      const status = c.error instanceof RequestAbortedError ? CLIENT_CLOSED_REQUEST : c.res.status;
      deliver(sink, entry(status, declaredLength(c.res.headers.get('content-length'))));
      return;
    }
    // Over HTTP: logged once the answer has gone out whole, or the connection has closed before.
    const logSent = () => {
      const sent = outgoing.writableFinished;
      deliver(
        sink,
        entry(
          sent ? outgoing.statusCode : CLIENT_CLOSED_REQUEST,
          sent ? socket.bytesWritten - sentBefore : undefined,
        ),
      );
    };
    // A client gone mid-body has closed the answer already: its `close` event is past.
    if (outgoing.destroyed) logSent();
    else outgoing.once('close', logSent);
  };
}
