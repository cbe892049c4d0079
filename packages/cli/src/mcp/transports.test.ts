/**
 * The two transports of the tool server, with the official MCP client on each: Streamable HTTP
 * at `/mcp`, and stdio through the built `svc mcp --env-file` (StdioClientTransport spawning it).
 * They list the same tools and answer the same calls the same, byte for byte.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEnvFile } from '../env-file.js';
import { serviceEnv } from '../service-env.js';

const BUILT_BIN = fileURLToPath(new URL('../../bin/svc.mjs', import.meta.url));
const BUILT_PROGRAM = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let server: RunningServer;
let dir: string;
let http: Client;
let stdio: Client;
const t = { traceId: '', spanId: '' };

async function ingest(body: unknown): Promise<void> {
  const res = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
}

beforeAll(async () => {
  if (!existsSync(BUILT_PROGRAM))
    throw new Error('build the packages first (pnpm build): dist/bin.js is missing');
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'svc-transports-'));
  const envFile = join(dir, 'svc.env');
  await writeEnvFile(envFile, serviceEnv(server));
  t.traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  t.spanId = '1a2b3c4d5e6f7081';
  const spans = Array.from({ length: 400 }, (_, i) => ({
    traceId: t.traceId,
    spanId: i === 0 ? t.spanId : (i + 1).toString(16).padStart(16, '0'),
    ...(i === 0 ? {} : { parentSpanId: t.spanId }),
    name: i === 0 ? 'agent run' : `chat step ${i}`,
    kind: 1,
    startTimeUnixNano: String(1_763_740_800_000_000_000n + BigInt(i) * 1_000_000n),
    endTimeUnixNano: String(1_763_740_800_000_000_000n + BigInt(i + 1) * 1_000_000n),
    attributes:
      i === 0
        ? [
            {
              key: 'gen_ai.input.messages',
              value: { stringValue: JSON.stringify([{ role: 'user', content: 'hi' }]) },
            },
            { key: 'app.blob', value: { stringValue: 'z'.repeat(200_000) } },
          ]
        : [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } }],
  }));
  await ingest({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'transports' } }] },
        scopeSpans: [{ scope: { name: 't' }, spans }],
      },
    ],
  });

  http = new Client({ name: 'svc-transport-tests', version: '1.0.0' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', server.origin), {
      requestInit: { headers: { authorization: `Bearer ${server.keys.mcp}` } },
    }),
  );
  stdio = new Client({ name: 'svc-transport-tests', version: '1.0.0' });
  const stdioTransport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_BIN, 'mcp', '--env-file', envFile],
    stderr: 'pipe',
  });
  await stdio.connect(stdioTransport);
});

afterAll(async () => {
  await http?.close();
  await stdio?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Streamable HTTP and stdio (svc mcp)', () => {
  it('list the same tools and resource templates, and the same server', async () => {
    const [overHttp, overStdio] = await Promise.all([http.listTools(), stdio.listTools()]);
    expect(overStdio).toEqual(overHttp);
    expect(overHttp.tools).toHaveLength(8);
    expect(await stdio.listResourceTemplates()).toEqual(await http.listResourceTemplates());
    expect(stdio.getServerVersion()).toEqual(http.getServerVersion());
    expect(stdio.getInstructions()).toEqual(http.getInstructions());
  });

  const calls: [string, () => Record<string, unknown>][] = [
    ['search_traces', () => ({ service: 'transports' })],
    ['get_trace', () => ({ trace_id: t.traceId, max_tokens: 4_000 })],
    ['get_span', () => ({ trace_id: t.traceId, span_id: t.spanId })],
    ['get_span', () => ({ trace_id: t.traceId, span_id: t.spanId, include_content: true })],
    [
      'verify_trace',
      () => ({ trace_id: t.traceId, expected_span_ids: [t.spanId], required_fields: ['input'] }),
    ],
    ['list_datasets', () => ({})],
    ['list_scorers', () => ({ limit: 1 })],
    ['get_experiment', () => ({ experiment_id: '00000000-0000-4000-8000-000000000000' })],
    ['get_span', () => ({ trace_id: t.traceId, span_id: 'not-an-id' })],
    ['get_trace', () => ({ trace_id: 'ffffffffffffffffffffffffffffffff' })],
  ];

  it.each(calls)('answer %s the same', async (tool, args) => {
    const request = { name: tool, arguments: args() };
    const [overHttp, overStdio] = await Promise.all([http.callTool(request), stdio.callTool(request)]);
    expect(overStdio).toEqual(overHttp);
  });

  it('follow the same cut to the same next answer', async () => {
    const first = (await http.callTool({
      name: 'get_span',
      arguments: { trace_id: t.traceId, span_id: t.spanId, include_content: true },
    })) as unknown as {
      structuredContent: { cuts: { next: { tool: string; arguments: Record<string, unknown> } }[] };
    };
    const next = first.structuredContent.cuts[0]!.next;
    const request = { name: next.tool, arguments: next.arguments };
    expect(await stdio.callTool(request)).toEqual(await http.callTool(request));
  });

  it('read the same file resource', async () => {
    const uri = `svc://traces/${t.traceId}/files/${'b'.repeat(64)}`;
    const failures = await Promise.all([
      http
        .readResource({ uri })
        .catch((error: { code: number; message: string }) => ({ code: error.code, message: error.message })),
      stdio
        .readResource({ uri })
        .catch((error: { code: number; message: string }) => ({ code: error.code, message: error.message })),
    ]);
    expect(failures[1]).toEqual(failures[0]);
    expect(failures[0]).toMatchObject({ code: -32002 });
  });

  it('svc mcp writes only JSON-RPC to stdout, answers what it read, and exits 0 when stdin ends', async () => {
    const child = spawn(process.execPath, [BUILT_BIN, 'mcp', '--env-file', join(dir, 'svc.env')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
    };
    child.stdin.end(
      `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
    );
    expect(await exited).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: unknown });
    expect(lines.map((line) => line.id)).toEqual([1, 2]);
    expect(lines[1]?.result).toEqual(await http.listTools());
    expect(stderr).toContain(`svc mcp: stdio ↔ ${server.origin}/mcp (key from SVC_MCP_KEY)`);
    for (const key of Object.values(server.keys)) expect(stdout + stderr).not.toContain(key);
  });
});
