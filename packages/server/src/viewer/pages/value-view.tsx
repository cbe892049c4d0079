/**
 * Recorded values as text, and what the page says when it shows only the start of one.
 * @module
 */
import { exactBytes, formatBytes } from '../format.js';

/** A value as text: a string as it is, anything else as indented JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The note under a value shown cut: how much is shown, of how much, and where the whole is. */
export function CutNote(props: { shownBytes: number; size: number; href?: string }) {
  return (
    <div class="cut">
      Showing the first {formatBytes(props.shownBytes)} of {formatBytes(props.size)} ({exactBytes(props.size)}
      ).{' '}
      {props.href === undefined ? null : (
        <a href={props.href} download="">
          Download the whole value
        </a>
      )}
    </div>
  );
}

/** A value left out because content was not included (not the viewer's case; kept for completeness). */
export function Withheld(props: { size: number }) {
  return <span class="muted">({formatBytes(props.size)} of recorded content, not included)</span>;
}
