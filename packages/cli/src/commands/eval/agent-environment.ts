/**
 * The environment of an agent command: the `svc eval` process's own, without the variables that
 * could reach what only evaluators may see (every `SVC_…` variable: keys and origins of the
 * service), plus the case's variables.
 * @module
 */

/** The variables `svc eval` sets for an agent command. */
export interface CaseVariables {
  /** The case's inputs as JSON text. */
  SVC_CASE_INPUTS: string;
  /** Where the command writes its outputs. */
  SVC_CASE_OUTPUT_DIR: string;
  /** The case's directory (also the command's working directory). */
  SVC_CASE_DIR: string;
  /** The case's external key. */
  SVC_CASE_KEY: string;
  /** W3C trace context of the case's command span, so the agent's own spans join the case's trace. */
  TRACEPARENT: string;
}

/** `base` without `SVC_…`, `TRACEPARENT` and `TRACESTATE`, with `variables` added. */
export function agentEnvironment(base: NodeJS.ProcessEnv, variables: CaseVariables): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (/^SVC_/i.test(name) || /^TRACE(?:PARENT|STATE)$/i.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...variables };
}
