/**
 * The registry stores' lookup of one record by its ID: read the row, answer 404 when there is
 * none, map it to what the API shows.
 * @module
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { ApiError } from '../../http/api-error.js';

/**
 * The row `statement` reads for `id`, mapped by `map`.
 *
 * @throws ApiError 404 `not_found` with `missing` as the message when there is no such row.
 */
export function requireRow<Row, T>(
  statement: StatementSync,
  id: SQLInputValue,
  missing: string,
  map: (row: Row) => T,
): T {
  const row = statement.get(id) as Row | undefined;
  if (row === undefined) throw new ApiError(404, 'not_found', missing);
  return map(row);
}
