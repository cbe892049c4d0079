/**
 * Langfuse: a `generation` observation as the Langfuse SDKs (v3 Python, v4 JS) record it on an
 * OpenTelemetry span, with trace-level input/output/metadata. Names from Langfuse's
 * `LangfuseOtelSpanAttributes` (web/src/features/otel/server/attributes.ts) and
 * langfuse.com/docs/opentelemetry/get-started (property mapping); metadata is recorded whole and
 * flattened per key.
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** A Langfuse generation span. */
export const langfuseFixture: ConventionFixture = {
  convention: 'Langfuse',
  source: 'langfuse/langfuse web/src/features/otel/server/attributes.ts (LangfuseOtelSpanAttributes)',
  spanName: 'support-answer',
  attributes: {
    'langfuse.observation.type': 'generation',
    'langfuse.observation.level': 'DEFAULT',
    'langfuse.observation.input': '[{"role":"user","content":"Where is my order?"}]',
    'langfuse.observation.output': '{"role":"assistant","content":"It ships tomorrow."}',
    'langfuse.observation.metadata': '{"orderNote":"leave at door"}',
    'langfuse.observation.metadata.orderNote': 'leave at door',
    'langfuse.observation.status_message': 'Customer jane@example.com is over quota',
    'langfuse.observation.model.name': 'gpt-4o',
    'langfuse.observation.model.parameters': '{"temperature":0.2}',
    'langfuse.observation.usage_details': '{"input":20,"output":6}',
    'langfuse.observation.prompt.name': 'support-answer',
    'langfuse.observation.prompt.version': 3,
    'langfuse.trace.name': 'support',
    'langfuse.trace.input': '{"question":"Where is my order?"}',
    'langfuse.trace.output': '"It ships tomorrow."',
    'langfuse.trace.metadata': '{"plan":"pro"}',
    'langfuse.trace.metadata.plan': 'pro',
    'langfuse.trace.tags': ['support'],
    'langfuse.environment': 'production',
    'langfuse.release': '1.4.0',
    'user.id': 'user-7',
    'session.id': 'sess-42',
  },
  contentAttributes: [
    'langfuse.observation.input',
    'langfuse.observation.output',
    'langfuse.observation.metadata',
    'langfuse.observation.metadata.orderNote',
    'langfuse.observation.status_message',
    'langfuse.trace.input',
    'langfuse.trace.output',
    'langfuse.trace.metadata',
    'langfuse.trace.metadata.plan',
  ],
};
