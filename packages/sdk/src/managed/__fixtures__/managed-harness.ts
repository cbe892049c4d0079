/**
 * Test harness of the managed handler: serves a handler on a real port (node:http, converted to
 * fetch `Request`/`Response`), records every request it received (so a test can replay it byte
 * for byte) and every answer, and runs a check before each answer leaves. A second path, `/hold`,
 * records requests without answering them through the handler. Not part of the package's API.
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as received. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** An answer of the handler, with what `beforeAnswer` found. */
export interface HandlerAnswer {
  request: ReceivedRequest;
  status: number;
  body: Record<string, unknown>;
  /** What the `beforeAnswer` hook returned, computed after the handler resolved and before sending. */
  checked: unknown;
}

/** A served handler. */
export interface ManagedHarness {
  /** `http://127.0.0.1:<port>/managed`: the handler. */
  url: string;
  /** `http://127.0.0.1:<port>/hold`: records the request and answers 202, never running the handler. */
  holdUrl: string;
  /** Requests held by `/hold`. */
  held: ReceivedRequest[];
  answers: HandlerAnswer[];
  /** The answer to the request naming `executionId` (the `n`-th such request, from 0). */
  answerFor(executionId: string, n?: number): Promise<HandlerAnswer>;
  /** The held request naming `executionId`. */
  heldFor(executionId: string): Promise<ReceivedRequest>;
  /** Sends `request` (by default to the handler) as received, or with changes. */
  send(request: ReceivedRequest, path?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** Headers of the connection, not of the request: not copied when a request is sent again. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers;
}

function executionOf(request: ReceivedRequest): string | undefined {
  try {
    return (JSON.parse(request.body) as { executionId?: string }).executionId;
  } catch {
    return undefined;
  }
}

/** Waits for an item of `list` that `match` accepts (checked at each push). */
function waitFor<T>(list: T[], waiters: Array<() => void>, match: (item: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const check = () => {
      const found = list.find(match);
      if (found === undefined) return false;
      resolve(found);
      return true;
    };
    if (check()) return;
    const waiter = () => {
      if (check()) waiters.splice(waiters.indexOf(waiter), 1);
    };
    waiters.push(waiter);
  });
}

/** Serves `handler`; `beforeAnswer` runs once it resolved and before its answer is sent. */
export async function serveManagedHandler(
  handler: (request: Request) => Promise<Response>,
  beforeAnswer: (answer: Omit<HandlerAnswer, 'checked'>) => Promise<unknown> = async () => undefined,
): Promise<ManagedHarness> {
  const answers: HandlerAnswer[] = [];
  const held: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received: ReceivedRequest = {
      path: req.url ?? '/',
      headers: headersOf(req),
      body: Buffer.concat(chunks).toString('utf8'),
    };
    if (received.path === '/hold') {
      held.push(received);
      notify();
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"held":true}');
      return;
    }
    const request = new Request(`http://${req.headers.host}${received.path}`, {
      method: req.method ?? 'GET',
      headers: received.headers,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
    });
    const response = await handler(request);
    const text = await response.text();
    const answer = {
      request: received,
      status: response.status,
      body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    };
    const checked = await beforeAnswer(answer);
    answers.push({ ...answer, checked });
    notify();
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/managed`,
    holdUrl: `${origin}/hold`,
    held,
    answers,
    answerFor: (executionId, n = 0) =>
      waitFor(
        answers,
        waiters,
        (answer) =>
          answers.filter((other) => executionOf(other.request) === executionId).indexOf(answer) === n &&
          executionOf(answer.request) === executionId,
      ),
    heldFor: (executionId) => waitFor(held, waiters, (request) => executionOf(request) === executionId),
    async send(request, path = '/managed') {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)),
      );
      const response = await fetch(`${origin}${path}`, { method: 'POST', headers, body: request.body });
      const text = await response.text();
      return {
        status: response.status,
        body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
      };
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
