/**
 * Edits of a text at positions: the scanner's output is the input with the replaced ranges
 * swapped, every other character kept as it was.
 * @module
 */

/** Replace `text.slice(start, end)` with `replacement`. */
export interface TextEdit {
  start: number;
  end: number;
  replacement: string;
}

/** `text` with `edits` (ascending, not overlapping) applied. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const pieces: string[] = [];
  let last = 0;
  for (const edit of edits) {
    pieces.push(text.slice(last, edit.start), edit.replacement);
    last = edit.end;
  }
  pieces.push(text.slice(last));
  return pieces.join('');
}
