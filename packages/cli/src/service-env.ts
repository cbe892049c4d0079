/**
 * The env file `svc serve` writes: how clients find and authenticate to the local service.
 * @module
 */
import type { RunningServer } from '@svc-run/server';

/** Name of the env file `svc serve` writes in its data directory. */
export const ENV_FILE = 'svc.env';

/** The comment heading the env file. */
export const ENV_FILE_COMMENT = [
  'Written by `svc serve`: the local service and its keys. Holds secrets; keep it private.',
  'Load it with `node --env-file=<this file> app.js`, or `set -a; . <this file>; set +a` in a shell.',
].join('\n');

/**
 * The variables of the env file: the origin, the tracing, read and read-write keys, the machine
 * credential of managed targets, and the MCP Read key (the key to hand to an agent's MCP host).
 * (The setup credential stays out of it.)
 */
export function serviceEnv(server: Pick<RunningServer, 'origin' | 'keys'>): Record<string, string> {
  return {
    SVC_BASE_URL: server.origin,
    SVC_API_KEY: server.keys.tracing,
    SVC_READ_KEY: server.keys.read,
    SVC_RW_KEY: server.keys.readWrite,
    SVC_MACHINE_KEY: server.keys.machine,
    SVC_MCP_KEY: server.keys.mcp,
  };
}
