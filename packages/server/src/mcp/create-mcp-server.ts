/**
 * The MCP tool server: its tools and its file resource, on the official SDK's `McpServer`. One is
 * made per HTTP request (the Streamable HTTP transport is stateless here) and per stdio session.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTool } from './define-tool.js';
import { registerFileResource } from './file-resource.js';
import type { McpRequestContext, McpSources } from './mcp-sources.js';
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO } from './server-info.js';
import { getExperimentItemTool, getExperimentTool } from './tools/experiment-tools.js';
import { getSpanTool } from './tools/get-span-tool.js';
import { getTraceTool } from './tools/get-trace-tool.js';
import { listDatasetsTool, listScorersTool } from './tools/list-registry-tools.js';
import { searchTracesTool } from './tools/search-traces-tool.js';
import { verifyTraceTool } from './tools/verify-trace-tool.js';

/** The names of the tools, in the order they are listed. */
export const MCP_TOOL_NAMES = [
  'search_traces',
  'get_trace',
  'get_span',
  'verify_trace',
  'get_experiment',
  'get_experiment_item',
  'list_datasets',
  'list_scorers',
] as const;

/** A tool server on `sources`. */
export function createMcpServer(sources: McpSources, context: McpRequestContext): McpServer {
  const server = new McpServer(
    { ...MCP_SERVER_INFO },
    { capabilities: { tools: {}, resources: {} }, instructions: MCP_INSTRUCTIONS },
  );
  registerTool(server, searchTracesTool(sources));
  registerTool(server, getTraceTool(sources));
  registerTool(server, getSpanTool(sources));
  registerTool(server, verifyTraceTool(sources, context));
  registerTool(server, getExperimentTool(sources));
  registerTool(server, getExperimentItemTool(sources));
  registerTool(server, listDatasetsTool(sources));
  registerTool(server, listScorersTool(sources));
  registerFileResource(server, sources);
  return server;
}
