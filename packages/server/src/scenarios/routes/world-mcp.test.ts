import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../../test-support/server-fixture.js';
import { scenarioRequests } from '../test-support/scenario-requests.js';
import { supportScenario } from '../test-support/support-scenario.js';

const fx = useServer();
const s = scenarioRequests(fx);
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The official MCP client connected to `url` with `token`. */
async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'scenario-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('a world over MCP (official client, Streamable HTTP)', () => {
  it("lists the scenario's tools with their JSON Schemas and calls them into the trial's world", async () => {
    const document = supportScenario();
    const versionId = await s.publishOk(document);
    const runId = await s.run(versionId);
    const started = await s.start(runId, 'refund-delivered');
    const client = await connect(started.world.mcpUrl, started.token!);
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-world' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.description, tool.inputSchema])).toEqual(
      document.world.tools.map((tool) => [tool.name, tool.description, tool.arguments]),
    );
    const read = (await client.callTool({
      name: 'get_order',
      arguments: { order_id: 'o1' },
    })) as CallToolResult;
    expect(read.isError).toBeFalsy();
    expect(JSON.parse(text(read))).toMatchObject({ id: 'o1', status: 'delivered' });
    const refused = (await client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'o2' },
    })) as CallToolResult;
    expect(refused).toMatchObject({ isError: true });
    expect(text(refused)).toBe('Only delivered orders can be refunded.');
    const invalid = (await client.callTool({
      name: 'refund_order',
      arguments: { orderId: 'o1' },
    })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('Invalid arguments for refund_order');
    const unknown = (await client.callTool({ name: 'launch_rockets', arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    await client.callTool({ name: 'refund_order', arguments: { order_id: 'o1' } });
    // The same world over plain HTTP: the calls of both transports are one record, in order.
    await s.call(started.world.id, started.token!, 'get_order', { order_id: 'o2' });
    const calls = (
      await s.api.get<{ items: { tool: string; result: { isError: boolean } }[] }>(
        `/trials/${started.trial.id}/tool-calls`,
      )
    ).body;
    expect(calls.items.map((call) => [call.tool, call.result.isError])).toEqual([
      ['get_order', false],
      ['refund_order', true],
      ['refund_order', true],
      ['refund_order', false],
      ['get_order', false],
    ]);
    const sealed = (await s.seal(started.trial.id, { output: 'Refund issued.' })).body;
    expect(sealed.failedChecks).toEqual([]);
  });

  it("takes its trial token only: no token, a project key, another world's token, a sealed trial are refused", async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId, 2);
    const mine = await s.start(runId, 'refund-delivered', 1);
    const other = await s.start(runId, 'refund-delivered', 2);
    const post = (url: string, authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post(mine.world.mcpUrl)).status).toBe(401);
    expect((await post(mine.world.mcpUrl, `Bearer ${fx.server.keys.readWrite}`)).status).toBe(403);
    expect((await post(mine.world.mcpUrl, `Bearer ${fx.server.keys.mcp}`)).status).toBe(403);
    const crossed = await post(mine.world.mcpUrl, `Bearer ${other.token}`);
    expect(crossed.status).toBe(403);
    expect(await crossed.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32003 } });
    expect((await post(`${fx.server.origin}/mcp`, `Bearer ${mine.token}`)).status).toBe(401);
    await s.seal(mine.trial.id, { output: 'x' });
    const closed = await post(mine.world.mcpUrl, `Bearer ${mine.token}`);
    expect(closed.status).toBe(401);
    expect(await closed.json()).toMatchObject({
      error: { message: expect.stringContaining('sealed or expired') },
    });
    expect((await post(other.world.mcpUrl, `Bearer ${other.token}`)).status).toBe(200);
  });
});
