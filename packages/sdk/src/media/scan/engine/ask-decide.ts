/**
 * Calling the caller's `decide`: a decision other than `upload`/`digest` leaves the file as
 * recorded. A `decide` that throws is a defect of the caller (the export path's admission of
 * uploads): the error goes up to the caller's guard, which reports it.
 * @module
 */

import type { DecideFile, FileDecision, FoundFile } from '../../media-types.js';

/** `decide` wrapped so it only answers the three decisions. */
export type AskFile = (file: FoundFile) => FileDecision;

/** Wraps `decide` (see {@link AskFile}). */
export function askFile(decide: DecideFile): AskFile {
  return (file) => {
    const decision = decide(file);
    return decision === 'upload' || decision === 'digest' ? decision : 'keep';
  };
}
