import type { LocalScorer } from '@svc-run/sdk/evals';

/** The length of the case's primary output text (a number metric `length`). */
export declare const length: LocalScorer;
