/**
 * How a request that fails its zod schema is answered: one issue, naming the field and the rule.
 * The OpenAPI routes' default hook and the evaluation routes' own validation both answer with it.
 * @module
 */
import { ApiError } from './api-error.js';

/**
 * Marks a refinement whose rule the OpenAPI document states anyway (a failure is a 400, like any
 * schema failure; other refinements' are 422, see {@link invalidRequestError}).
 */
export const STATED_IN_SCHEMA = 'statedInSchema';

/** What this module reads of a zod issue (zod 4's `$ZodIssue`, unions' branches included). */
export interface SchemaIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: SchemaIssue[][];
  params?: Record<string, unknown>;
}

/**
 * The issue to report: inside a union no branch matched, the issue of the branch that came
 * closest (the fewest issues), so the message names the field at fault rather than the union.
 */
function closestIssue(issue: SchemaIssue): SchemaIssue {
  if (issue.code !== 'invalid_union' || issue.errors === undefined || issue.errors.length === 0) return issue;
  const branch = issue.errors.reduce((best, candidate) =>
    candidate.length < best.length ? candidate : best,
  );
  const inner = branch[0];
  if (inner === undefined) return issue;
  const closest = closestIssue(inner);
  return { ...closest, path: [...issue.path, ...closest.path] };
}

/** True for an issue of a rule the OpenAPI document cannot state (a refinement not marked as stated). */
function beyondSchema(issue: SchemaIssue): boolean {
  return issue.code === 'custom' && issue.params?.[STATED_IN_SCHEMA] !== true;
}

/**
 * The answer to a value that failed its schema: `invalid_request`, `<field>: <rule>.`, the field
 * being `where` (e.g. `body`, or empty) joined with the issue's path. 400 when the value breaks its
 * schema as the OpenAPI document states it; 422 when it keeps to the document but breaks a rule
 * JSON Schema cannot state, which the schemas check with a refinement (a `custom` issue not marked
 * {@link STATED_IN_SCHEMA}: a minimum over a maximum, a repeated name, a field required by
 * another's value) and the route documents under 422. A schema-stated failure wins over a
 * refinement's, whatever their order, so every request the document allows is answered without a
 * 400.
 */
export function invalidRequestError(issues: readonly SchemaIssue[], where = ''): ApiError {
  const closest = issues.map(closestIssue);
  const issue = closest.find((candidate) => !beyondSchema(candidate)) ?? closest[0];
  const field = [where, ...(issue?.path ?? []).map(String)].filter((part) => part !== '').join('.');
  const status = issue !== undefined && beyondSchema(issue) ? 422 : 400;
  return new ApiError(status, 'invalid_request', `${field || 'request'}: ${issue?.message ?? 'invalid'}.`);
}
