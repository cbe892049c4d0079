/**
 * `verify_trace`: the trace receipt (as `GET /api/v1/traces/{traceId}/receipt` answers it) and
 * whether it holds every expected span ID and required field, polling the store for spans still
 * on their way until they are stored or the timeout passes. It never waits longer than its
 * timeout; at the timeout it answers `verified: false` with the latest receipt (`null` when no
 * write has touched the trace).
 * @module
 */
import { z } from 'zod';
import { MAX_EXPECTED_SPAN_IDS } from '../../limits.js';
import { RECEIPT_FIELDS } from '../../receipt/field-conventions.js';
import { type TraceReceiptView, traceReceipt } from '../../receipt/trace-receipt.js';
import { defineTool } from '../define-tool.js';
import type { McpRequestContext, McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { ToolInputError } from '../tool-input-error.js';
import { maxTokensInput, spanIdInput, traceIdInput } from '../tool-inputs.js';
import { type PollClock, pollUntil, REAL_CLOCK } from './poll-until.js';

/** Default and largest timeout (spec "Limits", Verification). */
export const DEFAULT_VERIFY_TIMEOUT_MS = 10_000;
export const MAX_VERIFY_TIMEOUT_MS = 60_000;

function verified(
  receipt: TraceReceiptView,
  expected: readonly string[],
  fields: readonly string[],
): boolean {
  return (
    receipt.missingSpanIds.length === 0 &&
    fields.every((field) => receipt.fields[field] === true) &&
    expected.every((id) => receipt.matchedSpanIds.includes(id))
  );
}

function render(answer: StructuredAnswer): string {
  const receipt = answer.receipt as TraceReceiptView | null;
  const present = (fields: Record<string, boolean>) =>
    JSON.stringify(Object.keys(fields).filter((field) => fields[field]));
  const lines = [
    answer.verified === true
      ? 'Verified: every expected span and required field is stored.'
      : `Not verified within the timeout: ${receipt === null ? 'no span or log of the trace is stored' : `missing spans ${JSON.stringify(receipt.missingSpanIds)}; fields present ${present(receipt.fields)}`}.`,
  ];
  if (receipt !== null) {
    lines.push(
      `Trace ${receipt.traceId}: ${count(receipt.spanCount)} spans stored, revision ${receipt.revision}; ${receipt.traceUrl}`,
    );
  }
  lines.push(...renderCuts(answer));
  return lines.join('\n');
}

/** The tool; `clock` is the real one except in tests. */
export function verifyTraceTool(
  sources: McpSources,
  context: McpRequestContext,
  clock: PollClock = REAL_CLOCK,
) {
  return defineTool({
    name: 'verify_trace',
    title: 'Verify a trace is stored',
    description:
      'Checks that a trace is stored with the given span IDs and fields (input, output, model, usage, session, user, error, tool), waiting up to timeout_ms for spans still on their way. Answers verified and the receipt (span count, revision, fields present, matched and missing span IDs, viewer link). Confirms presence, not values.',
    input: {
      trace_id: traceIdInput,
      expected_span_ids: z
        .array(spanIdInput)
        .max(1000)
        .optional()
        .describe(`Span IDs that must be stored; at most ${MAX_EXPECTED_SPAN_IDS} unique`),
      required_fields: z
        .array(z.enum(RECEIPT_FIELDS))
        .optional()
        .describe('Fields that must be present; unique'),
      timeout_ms: z
        .number()
        .positive()
        .max(MAX_VERIFY_TIMEOUT_MS)
        .optional()
        .describe(
          `Longest wait in ms, at most ${MAX_VERIFY_TIMEOUT_MS}; default ${DEFAULT_VERIFY_TIMEOUT_MS}`,
        ),
      max_tokens: maxTokensInput,
    },
    annotations: { idempotentHint: true },
    async run(args, signal) {
      const expected = [...new Set(args.expected_span_ids ?? [])];
      if (expected.length > MAX_EXPECTED_SPAN_IDS) {
        throw new ToolInputError(
          `expected_span_ids: at most ${MAX_EXPECTED_SPAN_IDS} unique span IDs; got ${expected.length}.`,
        );
      }
      const fields = args.required_fields ?? [];
      const repeated = fields.find((field, index) => fields.indexOf(field) !== index);
      if (repeated !== undefined) {
        throw new ToolInputError(`required_fields: each field once; ${repeated} is given more than once.`);
      }
      const timeout = args.timeout_ms ?? DEFAULT_VERIFY_TIMEOUT_MS;
      const read = () => traceReceipt(sources.traceStore, args.trace_id, expected, context.origin);
      const receipt = await pollUntil(
        read,
        (latest) => latest !== undefined && verified(latest, expected, fields),
        { timeoutMillis: timeout, signal, clock },
      );
      const answer = {
        verified: receipt !== undefined && verified(receipt, expected, fields),
        receipt: receipt ?? null,
      };
      return toolAnswer({ maxTokens: args.max_tokens, fit: () => ({ answer, cuts: [] }), render });
    },
  });
}
