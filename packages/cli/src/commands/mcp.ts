/**
 * `svc mcp`: the service's MCP tool server over stdio (`--env-file <file>`), for hosts that speak
 * stdio only; `svc mcp --check` connects, lists the tools and exits.
 * @module
 */
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { checkMcp } from '../mcp/mcp-check.js';
import { mcpEndpoint, mcpVariables } from '../mcp/mcp-endpoint.js';
import { runStdioBridge } from '../mcp/stdio-bridge.js';
import { parseNonBlank } from '../option-parsers.js';

/** The parsed options of `svc mcp`. */
export interface McpOptions {
  envFile?: string;
  check?: boolean;
}

/** Runs `svc mcp` with `options`. Throws with the reason when it cannot. */
export async function mcp(options: McpOptions, io: CliIo): Promise<void> {
  const envFile = options.envFile === undefined ? undefined : resolve(io.cwd, options.envFile);
  const { variables, where } = await mcpVariables(envFile, io.env ?? process.env);
  const endpoint = mcpEndpoint(variables, where);
  if (options.check === true) {
    const found = await checkMcp(endpoint);
    io.stdout.write(
      [
        `svc mcp: connected to ${endpoint.url.href} (${found.server.name} ${found.server.version}) with ${endpoint.keyVariable}`,
        `${found.tools.length} tools: ${found.tools.join(', ')}`,
        '',
      ].join('\n'),
    );
    return;
  }
  await runStdioBridge({
    endpoint,
    stdin: io.stdin ?? process.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    signal: io.signal,
  });
}

/** Adds the `mcp` subcommand to `program`. */
export function registerMcpCommand(program: Command, io: CliIo): Command {
  return program
    .command('mcp')
    .description("Serve the service's MCP tools over stdio, for MCP hosts that speak stdio only.")
    .addOption(
      new Option(
        '--env-file <file>',
        'env file with SVC_BASE_URL and SVC_MCP_KEY (the one svc serve writes)',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option('--check', 'connect, list the tools and exit (0 when they answer, 1 with the reason)'),
    )
    .addHelpText(
      'after',
      [
        '',
        'Reads SVC_BASE_URL and SVC_MCP_KEY (falling back to SVC_READ_KEY) from the env file,',
        'or from the environment without --env-file. Forwards the JSON-RPC messages of stdin to',
        '<SVC_BASE_URL>/mcp and writes the answers to stdout: the same tools and answers as over',
        'HTTP. Stops when stdin closes.',
      ].join('\n'),
    )
    .action(async (options: McpOptions) => {
      await mcp(options, io);
    });
}
