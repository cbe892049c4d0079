/**
 * Calling the caller's `decide` safely: a decision other than `upload`/`digest`, or a callback
 * that throws, leaves the file as recorded (the scanner never throws).
 * @module
 */

import type { DecideFile, FileDecision, FoundFile } from '../../media-types.js';

/** `decide` wrapped so it never throws and only answers the three decisions. */
export type AskFile = (file: FoundFile) => FileDecision;

/** Wraps `decide` (see {@link AskFile}). */
export function askFile(decide: DecideFile): AskFile {
  return (file) => {
    try {
      const decision = decide(file);
      return decision === 'upload' || decision === 'digest' ? decision : 'keep';
    } catch {
      return 'keep';
    }
  };
}
