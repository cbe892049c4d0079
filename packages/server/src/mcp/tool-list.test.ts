import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from './create-mcp-server.js';
import { useMcp } from './test-support/mcp-fixture.js';

const mcp = useMcp();
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The byte budget of the tool list: what every host loads into every conversation. */
const TOOL_LIST_BUDGET_BYTES = 16 * 1024;

describe('the tool list', () => {
  it('stays under 16 KB and is pinned by a snapshot', async () => {
    const { tools } = await mcp.client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(tools), 'utf8');
    expect(bytes).toBeLessThan(TOOL_LIST_BUDGET_BYTES);
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tool-list.json');
  });

  it('has the tools of the issue, read-only and closed-world, each argument described', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      // Hosts cut descriptions past 2,048 characters.
      expect(tool.description!.length).toBeLessThanOrEqual(2_048);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
      expect(tool.inputSchema.properties).toHaveProperty('max_tokens');
    }
  });

  it('offers include_content (default false) on every tool that can return recorded content, and only there', async () => {
    const { tools } = await mcp.client.listTools();
    const withContent = tools.filter((tool) => 'include_content' in (tool.inputSchema.properties ?? {}));
    expect(withContent.map((tool) => tool.name)).toEqual([
      'get_span',
      'get_experiment',
      'get_experiment_item',
    ]);
    for (const tool of withContent) {
      expect(tool.inputSchema.properties?.include_content).toMatchObject({ type: 'boolean', default: false });
    }
  });

  it('names the server as the package, with short instructions', async () => {
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'svc', version: manifest.version });
    expect(mcp.client.getInstructions()?.length).toBeLessThan(1_024);
  });
});
