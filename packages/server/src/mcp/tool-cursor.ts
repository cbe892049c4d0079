/**
 * Cursors of the MCP tools: opaque to callers (they copy them from a cut's `next` call), a
 * base64url JSON text here. A cursor continues one of:
 *
 * - `list`: a list of the answer from item `from` (the answer then holds that list only);
 * - `value`: a value of the answer (a JSON pointer) as text, from character `from`;
 * - `recorded`: a recorded value of a span whole (the read model's `recordedValue`), from
 *   character `from`;
 * - `page`: a page of a listing (the read model's or the registry's own cursor).
 * @module
 */
import { z } from 'zod';
import type { RecordedValueSource } from '../read/recorded-value.js';
import { ToolInputError } from './tool-input-error.js';

/** A decoded cursor. */
export type ToolCursor =
  | { list: string; from: number }
  | { value: string; from: number }
  | { recorded: RecordedValueSource; from: number }
  | { page: string };

const offset = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const attribute = z.string().max(4096);
const index = z.number().int().min(0).max(100_000);

const CursorSchema = z.union([
  z.strictObject({ list: z.string().max(256), from: offset }),
  z.strictObject({ value: z.string().max(1024), from: offset }),
  z.strictObject({
    recorded: z.union([
      z.strictObject({ record: z.enum(['span', 'resource', 'scope']), attribute }),
      z.strictObject({ record: z.enum(['event', 'link']), index, attribute }),
      z.strictObject({ record: z.literal('log'), index, attribute: attribute.optional() }),
    ]),
    from: offset,
  }),
  z.strictObject({ page: z.string().max(512) }),
]);

/** The cursor text of `cursor`. */
export function encodeCursor(cursor: ToolCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

/**
 * The cursor `text` encodes.
 *
 * @throws ToolInputError when `text` is not a cursor of these tools.
 */
export function decodeCursor(text: string): ToolCursor {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]+$/.test(text)
      ? JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
      : undefined;
  } catch {
    parsed = undefined;
  }
  const cursor = CursorSchema.safeParse(parsed);
  if (!cursor.success) {
    throw new ToolInputError(
      "cursor: not a cursor of this tool; copy it from a previous answer's cuts[].next",
    );
  }
  return cursor.data as ToolCursor;
}
