/**
 * Validates a scenario document whole: its schema (every issue zod finds, each with its path),
 * then, when the schema holds, the rules beyond it (`document-rules.ts`). Nothing stops at the
 * first problem: the author fixes the document in one round.
 * @module
 */
import { type DocumentProblem, problemAt } from './document-problem.js';
import { documentRuleProblems } from './document-rules.js';
import { type ScenarioDocument, ScenarioDocumentSchema } from './scenario-document-schema.js';

/** Most problems listed in one answer; the count of the rest is said. */
export const MAX_LISTED_PROBLEMS = 100;

/** A validated document, or its problems. */
export type DocumentValidation =
  | { ok: true; document: ScenarioDocument }
  | {
      ok: false;
      problems: DocumentProblem[];
      /** True when the document breaks its JSON Schema (a 400); false when only the rules beyond it (a 422). */
      breaksSchema: boolean;
    };

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  errors?: Issue[][];
  note?: string;
  discriminator?: string;
  options?: unknown[];
}

function segments(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

/** The problems of one zod issue (an unknown member is one problem per member). */
function issueProblems(issue: Issue): DocumentProblem[] {
  const at = segments(issue.path);
  if (issue.code === 'unrecognized_keys' && issue.keys !== undefined) {
    return issue.keys.map((key) => problemAt([...at, key], 'is not a member the schema allows here'));
  }
  if (issue.code === 'invalid_union' && issue.errors !== undefined && issue.errors.length > 0) {
    // A union no branch matched: report the branch that came closest (the fewest issues).
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.flatMap((inner) => issueProblems({ ...inner, path: [...issue.path, ...inner.path] }));
  }
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined) {
    const options = (issue.options ?? []).map((option) => JSON.stringify(option)).join(', ');
    return [problemAt(at, `must be one of ${options}`)];
  }
  const message =
    issue.message === 'Invalid input'
      ? 'is not valid here'
      : issue.message.replace(/^Invalid input: expected record, received \w+$/i, 'must be an object');
  return [problemAt(at, message.charAt(0).toLowerCase() + message.slice(1))];
}

/** Validates `value` as a scenario document. */
export function validateDocument(value: unknown): DocumentValidation {
  const parsed = ScenarioDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const problems = (parsed.error.issues as unknown as Issue[]).flatMap(issueProblems);
    return { ok: false, problems, breaksSchema: true };
  }
  const problems = documentRuleProblems(parsed.data);
  return problems.length === 0
    ? { ok: true, document: parsed.data }
    : { ok: false, problems, breaksSchema: false };
}
