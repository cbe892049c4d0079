/**
 * The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector --cli`), a client nobody here
 * wrote, against the real server over Streamable HTTP: it lists the tools (its strict check of
 * tool schemas included) and calls get_span.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanDetail } from '../read/read-model-types.js';
import { ingest } from '../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { MCP_TOOL_NAMES } from './create-mcp-server.js';

const fx = useServer();
const INSPECTOR = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));
const t = { traceId: '', spanId: '', home: '' };

beforeAll(async () => {
  // The Inspector keeps its catalog under $HOME: a home of its own, removed afterwards.
  t.home = await mkdtemp(join(tmpdir(), 'svc-inspector-'));
  t.traceId = newTraceId();
  t.spanId = newSpanId();
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, {
        spanId: t.spanId,
        name: 'chat gpt-4o',
        attributes: [
          str('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: 'hello inspector' }])),
        ],
      }),
    ]),
  );
});

afterAll(async () => {
  await rm(t.home, { recursive: true, force: true });
});

function inspector(
  key: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      [
        '--cli',
        `${fx.server.origin}/mcp`,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${key}`,
        ...args,
      ],
      { env: { ...env, HOME: t.home }, timeout: 25_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
  });
}

describe('the MCP Inspector (CLI mode)', () => {
  it('lists the tools, and finds no schema portability problem', async () => {
    const listed = await inspector(fx.server.keys.mcp, '--method', 'tools/list', '--strict');
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
  });

  it('calls get_span and gets the span', async () => {
    const called = await inspector(
      fx.server.keys.read,
      '--method',
      'tools/call',
      '--tool-name',
      'get_span',
      '--tool-arg',
      `trace_id=${t.traceId}`,
      `span_id=${t.spanId}`,
      'include_content=true',
    );
    expect(called.code).toBe(0);
    const result = JSON.parse(called.stdout) as { structuredContent: SpanDetail; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.span).toMatchObject({ spanId: t.spanId, name: 'chat gpt-4o' });
    expect(result.structuredContent.contentIncluded).toBe(true);
    expect(JSON.stringify(result.structuredContent.messages)).toContain('hello inspector');
  });

  it('is refused with a tracing key, told which key to use', async () => {
    const refused = await inspector(fx.server.keys.tracing, '--method', 'tools/list');
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('use the MCP Read key');
  });
});
