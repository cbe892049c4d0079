/**
 * The refusal of an invalid scenario document: every problem, each with its path, in one answer
 * (`{ error: { code: "invalid_scenario", message, problems: [{ path, message }] } }`).
 * @module
 */
import { ApiError, type ApiErrorBody } from '../../http/api-error.js';
import type { DocumentProblem } from './document-problem.js';
import { MAX_LISTED_PROBLEMS } from './validate-document.js';

/** The error body of an invalid document. */
export interface ScenarioDocumentErrorBody extends ApiErrorBody {
  error: ApiErrorBody['error'] & { problems: DocumentProblem[] };
}

/** A scenario document refused with its problems. */
export class ScenarioDocumentError extends ApiError {
  readonly problems: DocumentProblem[];

  constructor(problems: readonly DocumentProblem[], breaksSchema: boolean) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const more = problems.length - listed.length;
    super(
      breaksSchema ? 400 : 422,
      'invalid_scenario',
      `The scenario document has ${problems.length} problem${problems.length === 1 ? '' : 's'}; each is listed with its JSON Pointer in error.problems${more > 0 ? ` (the first ${MAX_LISTED_PROBLEMS})` : ''}.`,
    );
    this.problems = listed;
  }

  override toBody(): ScenarioDocumentErrorBody {
    return { error: { code: this.code, message: this.message, problems: this.problems } };
  }
}
