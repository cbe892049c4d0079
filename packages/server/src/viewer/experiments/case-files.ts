/**
 * The output files of a case, as its trace holds them: the files recorded on the case's span
 * (`svc.file` events of role `output`, which `svc eval` records for what the agent command wrote),
 * with their states, so the experiment page shows them in place as the trace viewer does.
 * @module
 */
import { ApiError } from '../../http/api-error.js';
import type { ReadModel } from '../../read/read-model.js';
import type { SpanFileView } from '../../read/read-model-types.js';

/** The span name of a case (`runExperiment`'s `CASE_SPAN_NAME`). */
const CASE_SPAN_NAME = 'eval.case';

/** A case's output files and the span holding them, or why there are none to show. */
export type CaseFiles = { spanId: string; files: SpanFileView[] } | { problem: string };

/** The output files of the case whose attempt ran in trace `traceId`. */
export async function caseOutputFiles(readModel: ReadModel, traceId: string): Promise<CaseFiles> {
  let spans: Awaited<ReturnType<ReadModel['traceOutline']>>['spans'];
  try {
    spans = (await readModel.traceOutline(traceId)).spans;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { problem: 'Its trace is not stored.' };
    throw error;
  }
  const roots = spans.filter((span) => span.parentSpanId === null);
  const root = roots.find((span) => span.name === CASE_SPAN_NAME) ?? roots[0];
  if (root === undefined) return { problem: 'Its trace holds no span.' };
  if (root.fileCount === 0) return { spanId: root.spanId, files: [] };
  const detail = await readModel.spanDetail(traceId, root.spanId, { includeContent: true });
  return {
    spanId: root.spanId,
    files: detail.files.filter((file) => file.where === 'event' && file.role === 'output'),
  };
}
