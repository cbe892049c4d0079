/**
 * The MCP tool server benchmark: `get_trace` and `get_span` over Streamable HTTP (the official
 * MCP client, `@modelcontextprotocol/sdk`), against the read API's same answer in the same run.
 *
 * - Server: the reference server (`real-server.mjs`, the built `@svc-run/server`, a child process).
 * - Data: one trace of 10,000 spans (BENCH_MCP_SPANS; a root and model-call children with GenAI
 *   attributes, chat messages of about 1 KiB on each), one span of it holding a 50 MB attribute
 *   (BENCH_MCP_BIG_MB).
 * - Each operation BENCH_MCP_ROUNDS times (default 15), alternating MCP and read API; the figures
 *   are medians (and p90) of the client's wall time per call, the bytes of the answer (the HTTP
 *   body: JSON-RPC envelope included for MCP) and its estimated tokens (characters / 4).
 * - Operations: the trace outline (MCP `get_trace`: its first, budgeted answer; read API
 *   `GET /api/v1/traces/{id}` whole, and with `limit` = the spans the MCP answer holds: the same
 *   answer); the whole outline read through MCP's cursors, against the read API's whole outline;
 *   a span's detail with content (`get_span` with `include_content: true`, against
 *   `GET …/spans/{spanId}?includeContent=true`), for a chat span and for the span with the 50 MB
 *   attribute.
 * - Checks (exit 1 when one fails): every MCP answer within its budget (80,000 characters); the
 *   spans read through the cursors are the read API's whole outline, in order; MCP's first page is
 *   the read API's page of the same size.
 * @module
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ask, Children, envInt, fmt, fmtInt, pad, padLeft, runBench } from './bench-support.mjs';

const SPANS = envInt('BENCH_MCP_SPANS', 10_000, 2);
const BIG_MB = envInt('BENCH_MCP_BIG_MB', 50, 1);
const ROUNDS = envInt('BENCH_MCP_ROUNDS', 15, 1);
const WATCHDOG_MS = 10 * 60 * 1000;
const BUDGET_CHARACTERS = 80_000;

const here = import.meta.dirname;
const children = new Children();

const T0 = 1_763_740_800_000_000_000n;
const at = (millis) => String(T0 + BigInt(millis) * 1_000_000n);
const hex = (n, width) => n.toString(16).padStart(width, '0');
const str = (key, value) => ({ key, value: { stringValue: value } });

function traceRequest(traceId) {
  const spans = [];
  const rootId = hex(1, 16);
  for (let i = 0; i < SPANS; i++) {
    const messages = JSON.stringify([
      { role: 'system', content: 'You are a careful assistant. '.repeat(8) },
      { role: 'user', content: `Step ${i}: summarize the previous tool result. `.repeat(10) },
    ]);
    spans.push({
      traceId,
      spanId: hex(i + 1, 16),
      ...(i === 0 ? {} : { parentSpanId: rootId }),
      name: i === 0 ? 'invoke_agent bench' : `chat gpt-4o-mini ${i}`,
      kind: i === 0 ? 1 : 3,
      startTimeUnixNano: at(i),
      endTimeUnixNano: at(i + 5),
      attributes: [
        str('gen_ai.operation.name', i === 0 ? 'invoke_agent' : 'chat'),
        str('gen_ai.request.model', 'gpt-4o-mini'),
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '420' } },
        { key: 'gen_ai.usage.output_tokens', value: { intValue: '64' } },
        str('gen_ai.input.messages', messages),
        ...(i === 2 ? [str('app.dump', 'x'.repeat(BIG_MB * 1_000_000))] : []),
      ],
    });
  }
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'bench-mcp')] },
        scopeSpans: [{ scope: { name: 'bench' }, spans }],
      },
    ],
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const server = await children.start(join(here, 'real-server.mjs'), 'mcp-server');
  const { mcpKey } = await ask(server, 'keys');
  const traceId = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
  try {
    const body = JSON.stringify(traceRequest(traceId));
    const stored = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
    });
    if (stored.status !== 200) throw new Error(`ingest answered ${stored.status}`);

    // MCP over Streamable HTTP; a fetch that keeps each answer's body size.
    let lastBytes = 0;
    const counting = async (url, init) => {
      const response = await fetch(url, init);
      const text = await response.text();
      lastBytes = Buffer.byteLength(text);
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const client = new Client({ name: 'svc-bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.origin), {
        requestInit: { headers: { authorization: `Bearer ${mcpKey}` } },
        fetch: counting,
      }),
    );
    const mcp = async (name, args) => {
      const start = performance.now();
      const result = await client.callTool({ name, arguments: args });
      const ms = performance.now() - start;
      if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.content)}`);
      const characters = result.structuredContent.size.characters;
      if (characters > BUDGET_CHARACTERS)
        throw new Error(`${name} answered ${characters} characters, over the budget`);
      return { ms, bytes: lastBytes, tokens: result.structuredContent.size.tokens, result };
    };
    const api = async (path) => {
      const start = performance.now();
      const response = await fetch(`${server.origin}/api/v1${path}`, {
        headers: { authorization: `Bearer ${server.readKey}` },
      });
      const text = await response.text();
      const ms = performance.now() - start;
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      return {
        ms,
        bytes: Buffer.byteLength(text),
        tokens: Math.ceil(text.length / 4),
        body: JSON.parse(text),
      };
    };

    // Checks, once: the pages of get_trace are the read API's outline.
    const first = await mcp('get_trace', { trace_id: traceId });
    const pageSize = first.result.structuredContent.spans.length;
    const samePage = await api(`/traces/${traceId}?limit=${pageSize}`);
    if (JSON.stringify(samePage.body.spans) !== JSON.stringify(first.result.structuredContent.spans)) {
      throw new Error("get_trace's first page is not the read API's page of the same size");
    }
    const whole = await api(`/traces/${traceId}`);
    const readAll = async () => {
      const start = performance.now();
      let answer = await mcp('get_trace', { trace_id: traceId });
      const spans = [...answer.result.structuredContent.spans];
      let bytes = answer.bytes;
      let tokens = answer.tokens;
      let calls = 1;
      for (
        let cut = answer.result.structuredContent.cuts[0];
        cut !== undefined;
        cut = answer.result.structuredContent.cuts[0]
      ) {
        answer = await mcp(cut.next.tool, cut.next.arguments);
        spans.push(...answer.result.structuredContent.spans);
        bytes += answer.bytes;
        tokens += answer.tokens;
        calls++;
      }
      return { ms: performance.now() - start, bytes, tokens, calls, spans };
    };
    const all = await readAll();
    if (JSON.stringify(all.spans) !== JSON.stringify(whole.body.spans)) {
      throw new Error("the spans read through get_trace's cursors are not the read API's outline");
    }

    const operations = [
      ['trace outline: MCP get_trace (first answer)', () => mcp('get_trace', { trace_id: traceId })],
      [
        `  read API, same ${fmtInt(pageSize)} spans (limit)`,
        () => api(`/traces/${traceId}?limit=${pageSize}`),
      ],
      [`  read API, whole outline (${fmtInt(SPANS)} spans)`, () => api(`/traces/${traceId}`)],
      ['whole outline: MCP get_trace + cursors', readAll],
      [
        'chat span: MCP get_span include_content',
        () => mcp('get_span', { trace_id: traceId, span_id: hex(5, 16), include_content: true }),
      ],
      [
        '  read API span detail includeContent',
        () => api(`/traces/${traceId}/spans/${hex(5, 16)}?includeContent=true`),
      ],
      [
        `${BIG_MB} MB attribute: MCP get_span`,
        () => mcp('get_span', { trace_id: traceId, span_id: hex(3, 16), include_content: true }),
      ],
      [
        '  read API span detail includeContent',
        () => api(`/traces/${traceId}/spans/${hex(3, 16)}?includeContent=true`),
      ],
    ];
    const rows = operations.map(([label]) => ({ label, ms: [], bytes: 0, tokens: 0, calls: 1 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, [, run]] of operations.entries()) {
        const measured = await run();
        rows[index].ms.push(measured.ms);
        rows[index].bytes = measured.bytes;
        rows[index].tokens = measured.tokens;
        rows[index].calls = measured.calls ?? 1;
      }
    }
    await client.close();

    console.log(
      `\nMCP tool server: ${fmtInt(SPANS)}-span trace, ${ROUNDS} rounds, medians (client wall time per call, loopback)`,
    );
    console.log(
      [
        pad('operation', 44),
        padLeft('ms p50', 8),
        padLeft('ms p90', 8),
        padLeft('calls', 6),
        padLeft('bytes', 12),
        padLeft('est. tokens', 12),
      ].join('  '),
    );
    for (const row of rows) {
      console.log(
        [
          pad(row.label, 44),
          padLeft(fmt(percentile(row.ms, 50), 1), 8),
          padLeft(fmt(percentile(row.ms, 90), 1), 8),
          padLeft(fmtInt(row.calls), 6),
          padLeft(fmtInt(row.bytes), 12),
          padLeft(fmtInt(row.tokens), 12),
        ].join('  '),
      );
    }
    const ratio = (a, b) => fmt(percentile(rows[a].ms, 50) / percentile(rows[b].ms, 50), 2);
    console.log(
      `\nget_trace / read API same page: ${ratio(0, 1)}×; get_span / read API (chat span): ${ratio(4, 5)}×, (${BIG_MB} MB attribute): ${ratio(6, 7)}×.`,
    );
    console.log(
      `MCP answers stay within 20,000 estimated tokens; the read API's whole outline is ${fmtInt(rows[2].tokens)} and a host taking about 25,000 would refuse it.`,
    );
  } finally {
    await children.stop(server);
  }
}

await runBench('mcp', main, children, WATCHDOG_MS);
