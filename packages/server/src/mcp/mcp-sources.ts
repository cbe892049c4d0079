/**
 * What the MCP tools read: the same read model and evaluation registry as the read API, so both
 * say the same for the same question.
 * @module
 */
import type { EvalRegistry } from '../evals/eval-registry.js';
import type { TraceStore } from '../ingest/trace-store.js';
import type { TraceFiles } from '../media/trace-files.js';
import type { ReadModel } from '../read/read-model.js';

/** The sources of the MCP tool server. */
export interface McpSources {
  readModel: ReadModel;
  /** The trace store: receipts (`verify_trace`). */
  traceStore: TraceStore;
  /** The media files of traces: the file resource. */
  files: TraceFiles;
  /** The evaluation registry (`get_experiment`, `list_datasets`, …); without it those tools say so. */
  evals?: EvalRegistry | undefined;
  /** Origin of links (`traceUrl` of receipts); the request's own origin when unset. */
  publicOrigin?: string | undefined;
}

/** What one MCP request knows besides the sources. */
export interface McpRequestContext {
  /** The origin `traceUrl` links use. */
  origin: string;
}
