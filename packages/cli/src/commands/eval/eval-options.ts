/**
 * The parsed options of `svc eval --set`.
 * @module
 */
import type { EvalSetReference } from './eval-set-reference.js';

/** The parsed options of `svc eval --set`. */
export interface EvalOptions {
  set: EvalSetReference;
  scorer: string[];
  command: string;
  revision?: string;
  wait: number;
  json: boolean;
  junit?: string;
  envFile?: string;
  baseline?: string;
  content: boolean;
  timeout: number;
  checkpointDir?: string;
  retryErrors: boolean;
  concurrency: number;
  scorerModule: string[];
}
