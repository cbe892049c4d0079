/**
 * Test support: the official MCP TypeScript client connected to a started server's `/mcp` over
 * Streamable HTTP with a key. Not part of the package's API.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnswerSize } from '../budget/answer-budget.js';
import type { AnswerCut } from '../budget/answer-cut.js';

/** A structured answer: its cuts, its size and the tool's own members. */
export type ToolAnswerJson = { cuts: AnswerCut[]; size: AnswerSize } & Record<string, unknown>;

/** A connected client; close it after use. */
export async function httpClient(origin: string, key: string): Promise<Client> {
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', origin), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls `tool` and returns its result (a tool error is a result with `isError`). */
export async function callTool(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
}

/** The structured answer of a successful call (fails the test on an error result). */
export function structured<T extends object = ToolAnswerJson>(result: CallToolResult): T & ToolAnswerJson {
  if (result.isError) {
    const text = result.content.map((block) => (block.type === 'text' ? block.text : block.type)).join(' ');
    throw new Error(`the tool answered an error: ${text}`);
  }
  return result.structuredContent as T & ToolAnswerJson;
}

/** The text of an error result (fails the test on a successful one). */
export function errorText(result: CallToolResult): string {
  if (result.isError !== true) throw new Error('the tool answered without an error');
  return result.content.map((block) => (block.type === 'text' ? block.text : block.type)).join(' ');
}

/** Characters of a whole result as the budget counts them: text blocks plus structured JSON. */
export function resultCharacters(result: CallToolResult): number {
  const text = result.content.reduce(
    (sum, block) => sum + (block.type === 'text' ? block.text.length : 0),
    0,
  );
  return text + JSON.stringify(result.structuredContent ?? {}).length;
}
