import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_ID } from '../evals/test-support/eval-requests.js';
import { newSpanId, newTraceId } from '../test-support/otlp-fixtures.js';
import { MCP_TOOL_NAMES } from './create-mcp-server.js';
import { httpClient } from './test-support/mcp-clients.js';
import { useMcp } from './test-support/mcp-fixture.js';

const mcp = useMcp();

/** Arguments each tool accepts (IDs nothing has: the call passes the key check, then says "unknown"). */
const ARGS: Record<(typeof MCP_TOOL_NAMES)[number], Record<string, unknown>> = {
  search_traces: {},
  get_trace: { trace_id: newTraceId() },
  get_span: { trace_id: newTraceId(), span_id: newSpanId() },
  verify_trace: { trace_id: newTraceId(), timeout_ms: 1 },
  get_experiment: { experiment_id: UNKNOWN_ID },
  get_experiment_item: { experiment_id: UNKNOWN_ID, case_id: UNKNOWN_ID },
  list_datasets: {},
  list_scorers: {},
};

type KeyName = 'mcp' | 'read' | 'readWrite' | 'tracing' | 'setup' | 'machine';
const ACCEPTED: KeyName[] = ['mcp', 'read', 'readWrite'];
const REFUSED: [KeyName, string][] = [
  ['tracing', 'Tracing'],
  ['setup', 'Setup'],
  ['machine', 'Machine'],
];

function post(body: unknown, authorization?: string, headers: Record<string, string> = {}) {
  return fetch(`${mcp.fx.server.origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const callOf = (tool: string) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: tool, arguments: ARGS[tool as keyof typeof ARGS] },
});

describe('who may use the tool server', () => {
  const tools = [...MCP_TOOL_NAMES];

  it.each(tools.flatMap((tool) => ACCEPTED.map((key) => [tool, key] as const)))(
    '%s answers a call with the %s key',
    async (tool, key) => {
      const res = await post(callOf(tool), `Bearer ${mcp.fx.server.keys[key]}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: number; result: { content: unknown[] } };
      expect(body.id).toBe(7);
      expect(body.result.content.length).toBeGreaterThan(0);
    },
  );

  it.each(tools.flatMap((tool) => REFUSED.map(([key, name]) => [tool, key, name] as const)))(
    '%s refuses the %s key (403), saying which key to use',
    async (tool, key, name) => {
      const presented = mcp.fx.server.keys[key];
      const res = await post(callOf(tool), `Bearer ${presented}`);
      expect(res.status).toBe(403);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32003,
          message: `A ${name} key cannot read traces over MCP: use the MCP Read key (SVC_MCP_KEY in the env file \`svc serve\` writes), or a Read or Read-and-write key.`,
        },
      });
      expect(text).not.toContain(presented);
    },
  );

  it.each(tools)('%s refuses a call without a key or with an unknown one (401)', async (tool) => {
    for (const authorization of [undefined, 'Bearer svc_read_not-a-key-of-this-project', 'Basic abc']) {
      const res = await post(callOf(tool), authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32001);
      expect(body.error.message).toContain('use the MCP Read key (SVC_MCP_KEY');
      expect(JSON.stringify(body)).not.toContain('not-a-key-of-this-project');
    }
  });

  it('refuses the file resource to a tracing key too', async () => {
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `svc://traces/${newTraceId()}/files/${'a'.repeat(64)}` },
      },
      `Bearer ${mcp.fx.server.keys.tracing}`,
    );
    expect(res.status).toBe(403);
  });

  it("makes the official client's connection fail with the reason", async () => {
    const failure = await httpClient(mcp.fx.server.origin, mcp.fx.server.keys.tracing).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(403);
    expect((failure as Error).message).toContain('use the MCP Read key');
  });

  it('answers GET and DELETE with 405 (no event stream, no sessions)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${mcp.fx.server.origin}/mcp`, {
        method,
        headers: { authorization: `Bearer ${mcp.fx.server.keys.mcp}`, accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses requests from web pages of another origin', async () => {
    const res = await post(callOf('list_datasets'), `Bearer ${mcp.fx.server.keys.mcp}`, {
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    const same = await post(callOf('list_datasets'), `Bearer ${mcp.fx.server.keys.mcp}`, {
      origin: mcp.fx.server.origin,
    });
    expect(same.status).toBe(200);
  });
});
