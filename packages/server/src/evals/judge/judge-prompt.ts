/**
 * What a hosted judge sends to its model and how its answer becomes a Score: the bindings read
 * from the subject by JSON Pointer, the prompt, the JSON Schema of the answer, and the answer's
 * reading.
 * @module
 */

import type { Subject } from '../runs/run-store.js';
import type { ScoreFields } from '../runs/score-rules.js';
import type { MetricDefinition } from '../scorers/metric-schemas.js';

/** A binding of the judge configuration. */
export interface JudgeBinding {
  name: string;
  path: string;
  required: boolean;
}

/** The judge configuration used to build the prompt. */
export interface JudgePromptConfig {
  rubric: string;
  bindings: JudgeBinding[];
}

/** The root bindings read from: `{ inputs, output, expected, metadata, executionState }`. */
export function bindingRoot(subject: Subject): Record<string, unknown> {
  return {
    inputs: subject.inputs,
    output: subject.output,
    expected: subject.expected,
    metadata: subject.metadata,
    executionState: subject.executionState,
  };
}

/** The value at a JSON Pointer (RFC 6901), or `undefined` when there is none. */
export function readPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** The bound values by name, or the first required binding without a value. */
export function bindValues(
  root: Record<string, unknown>,
  bindings: readonly JudgeBinding[],
): { values: Map<string, unknown> } | { missing: JudgeBinding } {
  const values = new Map<string, unknown>();
  for (const binding of bindings) {
    const value = readPointer(root, binding.path);
    if (value === undefined && binding.required) return { missing: binding };
    values.set(binding.name, value);
  }
  return { values };
}

function metricSchema(metric: MetricDefinition): Record<string, unknown> {
  switch (metric.type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'text':
      return { type: 'string' };
    case 'category':
      return { type: 'string', enum: metric.categories };
    case 'number': {
      const schema: Record<string, unknown> = { type: 'number' };
      if (metric.min !== undefined) schema.minimum = metric.min;
      if (metric.max !== undefined) schema.maximum = metric.max;
      return schema;
    }
  }
}

/** The JSON Schema of the judge's answer: `{ explanation, metrics: { <name>: <value> } }`. */
export function judgeAnswerSchema(metrics: readonly MetricDefinition[]): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['explanation', 'metrics'],
    properties: {
      explanation: { type: 'string', description: 'Why these values, in a few sentences' },
      metrics: {
        type: 'object',
        additionalProperties: false,
        required: metrics.map((metric) => metric.name),
        properties: Object.fromEntries(metrics.map((metric) => [metric.name, metricSchema(metric)])),
      },
    },
  };
}

/** The system and user prompt of one job. */
export function judgePrompt(
  config: JudgePromptConfig,
  metrics: readonly MetricDefinition[],
  values: Map<string, unknown>,
): { system: string; prompt: string } {
  const described = metrics
    .map((metric) => {
      const kind =
        metric.type === 'category'
          ? `one of ${metric.categories.map((c) => JSON.stringify(c)).join(', ')}`
          : metric.type === 'number'
            ? `a number${metric.min !== undefined ? ` ≥ ${metric.min}` : ''}${metric.max !== undefined ? ` ≤ ${metric.max}` : ''}`
            : `a ${metric.type === 'text' ? 'string' : 'boolean'}`;
      return `- ${metric.name}: ${kind}`;
    })
    .join('\n');
  const system =
    'You are an evaluation judge. Grade the material below by the rubric. Answer only with a JSON object ' +
    '{ "explanation": string, "metrics": { ... } } holding exactly these metrics:\n' +
    `${described}\n\nRubric:\n${config.rubric}`;
  const prompt = config.bindings
    .map((binding) => {
      const value = values.get(binding.name);
      return `<${binding.name}>\n${value === undefined ? '(absent)' : JSON.stringify(value, null, 2)}\n</${binding.name}>`;
    })
    .join('\n\n');
  return { system, prompt };
}

/**
 * The Score of a judge's answer: `scored`, its metrics in definition order; a boolean metric also
 * gives `passed`. `undefined` when the answer is not of the expected shape.
 */
export function readJudgeAnswer(
  answer: unknown,
  metrics: readonly MetricDefinition[],
): ScoreFields | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { explanation, metrics: values } = answer as { explanation?: unknown; metrics?: unknown };
  if (
    typeof explanation !== 'string' ||
    typeof values !== 'object' ||
    values === null ||
    Array.isArray(values)
  ) {
    return undefined;
  }
  const byName = values as Record<string, unknown>;
  if (Object.keys(byName).some((name) => !metrics.some((metric) => metric.name === name))) return undefined;
  const scored: NonNullable<ScoreFields['metrics']> = [];
  for (const metric of metrics) {
    const value = byName[metric.name];
    if (typeof value !== 'boolean' && typeof value !== 'number' && typeof value !== 'string')
      return undefined;
    scored.push(
      metric.type === 'boolean' && typeof value === 'boolean'
        ? { name: metric.name, value, passed: value }
        : { name: metric.name, value },
    );
  }
  return { status: 'scored', metrics: scored, explanation };
}
