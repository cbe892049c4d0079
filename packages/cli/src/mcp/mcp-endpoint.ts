/**
 * Where `svc mcp` connects: `SVC_BASE_URL` and the key (`SVC_MCP_KEY`, else `SVC_READ_KEY`), read
 * from the env file given with `--env-file` (the one `svc serve` writes), else from the
 * environment. Checked once, with messages naming the variable and the rule (never a key).
 * @module
 */
import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';

/** The tool server to connect to. */
export interface McpEndpoint {
  /** The service origin (`SVC_BASE_URL`). */
  origin: string;
  /** `<origin>/mcp`. */
  url: URL;
  /** The key sent as Bearer. */
  key: string;
  /** The variable the key came from. */
  keyVariable: 'SVC_MCP_KEY' | 'SVC_READ_KEY';
}

/** Reads the variables of `envFile`, or returns `env` without one. */
export async function mcpVariables(
  envFile: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ variables: NodeJS.Dict<string>; where: string }> {
  if (envFile === undefined) return { variables: env, where: 'the environment' };
  let text: string;
  try {
    text = await readFile(envFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the env file ${envFile}${code === undefined ? '' : ` (${code})`}`);
  }
  return { variables: parseEnv(text), where: envFile };
}

/**
 * The endpoint `variables` (read from `where`) name.
 *
 * @throws Error naming the missing or invalid variable.
 */
export function mcpEndpoint(variables: NodeJS.Dict<string>, where: string): McpEndpoint {
  const base = variables.SVC_BASE_URL;
  if (base === undefined || base.trim() === '') {
    throw new Error(
      `SVC_BASE_URL is not set in ${where}; it is the service origin, for example http://127.0.0.1:4318`,
    );
  }
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`SVC_BASE_URL in ${where} must be an http(s) origin; got ${JSON.stringify(base)}`);
  }
  const originOnly = (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '' || !originOnly) {
    throw new Error(
      `SVC_BASE_URL in ${where} must be an http(s) origin only (no path, query, fragment or credentials); got ${JSON.stringify(`${url.protocol}//${url.host}${url.pathname}`)}`,
    );
  }
  const keyVariable = variables.SVC_MCP_KEY ? 'SVC_MCP_KEY' : 'SVC_READ_KEY';
  const key = variables[keyVariable];
  if (key === undefined || key.trim() === '') {
    throw new Error(
      `neither SVC_MCP_KEY nor SVC_READ_KEY is set in ${where}; set the MCP Read key (SVC_MCP_KEY)`,
    );
  }
  return { origin: url.origin, url: new URL('/mcp', url.origin), key: key.trim(), keyVariable };
}
