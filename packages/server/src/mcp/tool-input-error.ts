/**
 * The error of a tool call whose arguments are well formed but do not make sense together (a
 * cursor of another tool, a list the tool does not have). Its message names the argument and the
 * rule, never a value; the tool answers it as an error result.
 * @module
 */

/** Arguments a tool refuses. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
