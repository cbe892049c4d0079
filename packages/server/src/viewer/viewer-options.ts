/**
 * What the viewer is built with.
 * @module
 */
import type { KeyRing } from '../auth/key-ring.js';
import type { EvalRegistry } from '../evals/eval-registry.js';
import type { TraceFiles } from '../media/trace-files.js';
import type { ReadModel } from '../read/read-model.js';
import type { Scenarios } from '../scenarios/scenarios.js';
import type { ViewerSessions } from './session/viewer-sessions.js';

/** The viewer's sources and settings. */
export interface ViewerOptions {
  readModel: ReadModel;
  /** The traces' media files (stored bytes and their records). */
  files: TraceFiles;
  /** The evaluation registry: the experiment pages (`/experiments`) read it. */
  evals?: EvalRegistry | undefined;
  /** The project's keys, to log in with. */
  keyRing: KeyRing;
  sessions: ViewerSessions;
  /** The public origin; its scheme decides whether cookies are Secure. The request's when omitted. */
  publicOrigin?: string;
  /** Scenarios: their pages and the Run button (`/scenarios…`) are served when given. */
  scenarios?: Scenarios;
  /** The clock (ms since epoch); `Date.now` when omitted. */
  now?: () => number;
}
