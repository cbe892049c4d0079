/**
 * `@svc-run/cli`: the `svc` command, and the same command line for in-process use.
 * @module
 */
export type { AgentContext, WorldToolFunction } from './commands/eval/scenario-run/agent-context.js';
export type { RunMyAgent } from './commands/eval/scenario-run/agent-file.js';
export type { ScenarioEvalDocument } from './commands/eval/scenario-run/scenario-document.js';
export { type WriteEnvFileOptions, writeEnvFile } from './env-file.js';
export { ExitCode } from './exit-codes.js';
export type { CliIo, OutputStream } from './io.js';
export { run } from './program.js';
export { ENV_FILE } from './service-env.js';
