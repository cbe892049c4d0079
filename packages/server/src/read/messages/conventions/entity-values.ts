/**
 * Values other instrumentations record whole, read in a message format when they are in one,
 * else as they are: Langfuse's observation and trace input and output
 * (`LangfuseOtelSpanAttributes`: `langfuse.observation.input` / `.output`,
 * `langfuse.trace.input` / `.output`), and Traceloop's entity input and output
 * (`traceloop.entity.input` / `.output`, the JSON of a decorated function's arguments and result).
 * @module
 */

import type { MessageSource } from './message-source.js';
import { readAttributeMessages } from './read-attribute.js';

function entitySource(name: string, direction: 'input' | 'output', convention: string): MessageSource {
  return {
    direction,
    read: (record, reader) => readAttributeMessages(record, reader, name, { direction, convention }),
  };
}

export const langfuseObservationInput = entitySource('langfuse.observation.input', 'input', 'Langfuse');
export const langfuseObservationOutput = entitySource('langfuse.observation.output', 'output', 'Langfuse');
export const langfuseTraceInput = entitySource('langfuse.trace.input', 'input', 'Langfuse');
export const langfuseTraceOutput = entitySource('langfuse.trace.output', 'output', 'Langfuse');
export const traceloopEntityInput = entitySource('traceloop.entity.input', 'input', 'Traceloop');
export const traceloopEntityOutput = entitySource('traceloop.entity.output', 'output', 'Traceloop');
