/**
 * Test support: the agent file of the scenario tests (`svc eval --scenario`, `--worker`), in
 * TypeScript with erasable syntax only, so Node runs it as it is. What it does is chosen by the
 * case's inputs:
 *
 * - `behavior: "add"`: adds the note `inputs.text` through `context.tools.add_note`, answers
 *   `added <text>`;
 * - `"mcp"`: the same through `context.mcp` (the official MCP client on the trial's world);
 * - `"throw"`: throws an error whose message is `inputs.text`;
 * - `"block"`: writes `<EVAL_TEST_MARKERS>/<case>#<trial>.running` and never returns (the test kills
 *   or stops the process there);
 * - `"inspect"`: answers what it can see: its tools, its files, the MCP tool list, the result of
 *   calling tools the world lacks and arguments outside the schema, the `SVC_` variables of its
 *   environment.
 *
 * Every call first appends `<case>#<trial>` to `EVAL_TEST_LOG` (when set): a test counts calls.
 * @module
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Inputs {
  behavior?: string;
  text?: string;
}

interface Context {
  tools: Record<string, (args?: Record<string, unknown>) => Promise<unknown>>;
  mcp: {
    listTools(): Promise<{ tools: { name: string }[] }>;
    callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  };
  files: unknown[];
  signal: AbortSignal;
  trial: { caseKey: string; trial: number; trialId: string; worldId: string };
}

async function attempt(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

export async function runMyAgent(inputs: Inputs, context: Context): Promise<unknown> {
  const label = `${context.trial.caseKey}#${context.trial.trial}`;
  if (process.env.EVAL_TEST_LOG) appendFileSync(process.env.EVAL_TEST_LOG, `${label}\n`);
  switch (inputs.behavior) {
    case 'add':
      await context.tools.add_note!({ text: inputs.text });
      return `added ${inputs.text}`;
    case 'mcp':
      await context.mcp.callTool({ name: 'add_note', arguments: { text: inputs.text } });
      return `added ${inputs.text}`;
    case 'throw':
      throw new RangeError(inputs.text ?? 'failed');
    case 'block':
      writeFileSync(join(process.env.EVAL_TEST_MARKERS ?? '.', `${label}.running`), String(process.pid));
      return new Promise(() => setInterval(() => undefined, 60_000));
    case 'inspect':
      return {
        tools: Object.keys(context.tools).sort(),
        files: context.files,
        mcpTools: (await context.mcp.listTools()).tools.map((tool) => tool.name).sort(),
        unknownTool: await attempt(() => context.mcp.callTool({ name: 'get_scenario', arguments: {} })),
        badArguments: await attempt(() => context.tools.add_note!({ text: 42, pointer: '/..' })),
        environment: Object.keys(process.env).filter((name) => name.startsWith('SVC_')),
      };
    default:
      return `unknown behavior ${String(inputs.behavior)}`;
  }
}
