/**
 * `svc mcp` over stdio: the service's tool server for hosts that speak stdio only. Each JSON-RPC
 * message read on stdin is sent to `<origin>/mcp` with the official SDK's Streamable HTTP client
 * transport, and each answer is written to stdout with its stdio server transport, unchanged: the
 * tools, their lists and their answers are the service's own, the same as over HTTP.
 *
 * A request the service cannot be asked (it is down, it refuses the key) is answered on stdio
 * with a JSON-RPC error giving the reason, so the host shows it. Nothing else is ever written to
 * stdout; diagnostics go to stderr.
 * @module
 */
import { Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { OutputStream } from '../io.js';
import type { McpEndpoint } from './mcp-endpoint.js';
import { mcpFailure } from './mcp-failure.js';

/** JSON-RPC error code of a request the service could not be asked. */
const UNREACHABLE = -32000;

/** What the bridge runs on. */
export interface StdioBridgeOptions {
  endpoint: McpEndpoint;
  stdin: NodeJS.ReadableStream;
  /** Where JSON-RPC messages go (the host reads them). */
  stdout: OutputStream;
  /** Diagnostics. */
  stderr: OutputStream;
  /** Stops the bridge when aborted (besides stdin ending). */
  signal?: AbortSignal | undefined;
}

function writableOf(stream: OutputStream): Writable {
  if (stream instanceof Writable) return stream;
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stream.write(chunk.toString());
      done();
    },
  });
}

/** Forwards stdio to the tool server until stdin ends or `signal` aborts. */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const { endpoint, stderr } = options;
  const host = new StdioServerTransport(
    options.stdin as unknown as ConstructorParameters<typeof StdioServerTransport>[0],
    writableOf(options.stdout),
  );
  const service = new StreamableHTTPClientTransport(endpoint.url, {
    requestInit: { headers: { authorization: `Bearer ${endpoint.key}` } },
  });
  const initializeIds = new Set<string | number>();
  // Requests sent and not answered yet: stdin may end before their answers arrive (a piped input).
  const inFlight = new Set<Promise<void>>();

  service.onmessage = (message: JSONRPCMessage) => {
    // The client transport sends the negotiated protocol version on later requests, as a client does.
    if (isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') service.setProtocolVersion(version);
    }
    host.send(message).catch((error: unknown) => {
      stderr.write(
        `svc mcp: cannot write to stdout: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  };
  let closing = false;
  let reported: string | undefined;
  const report = (reason: string) => {
    if (reason === reported) return;
    reported = reason;
    stderr.write(`svc mcp: ${reason}\n`);
  };
  service.onerror = (error) => {
    // Failed requests are answered on stdio (below); aborts are the bridge closing.
    if (closing || error.name === 'AbortError') return;
    report(mcpFailure(error, endpoint.url));
  };
  host.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    const sent = service.send(message).catch(async (error: unknown) => {
      const reason = mcpFailure(error, endpoint.url);
      report(reason);
      if (!isJSONRPCRequest(message)) return;
      await host.send({ jsonrpc: '2.0', id: message.id, error: { code: UNREACHABLE, message: reason } });
    });
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };
  host.onerror = (error) => {
    stderr.write(`svc mcp: unreadable message on stdin: ${error.message}\n`);
  };

  const ended = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
    if (options.signal !== undefined) {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), { once: true });
    }
  });
  await service.start();
  await host.start();
  stderr.write(`svc mcp: stdio ↔ ${endpoint.url.href} (key from ${endpoint.keyVariable})\n`);
  try {
    await ended;
    // Every request read before stdin ended gets its answer.
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  } finally {
    closing = true;
    await host.close();
    await service.close();
  }
}
