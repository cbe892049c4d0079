/**
 * Metric definitions (the spec's "Metric definition"): `name`, `type` in `boolean`, `text`,
 * `number` (optional `min`, `max`) or `category` (required `categories`). The same rules as the
 * SDK's `validateMetricDefinitions`.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { text } from '../core/common-schemas.js';
import { MAX_METRICS } from '../core/eval-limits.js';

const MetricName = text(256);

const NumberMetric = z
  .strictObject({
    name: MetricName,
    type: z.literal('number'),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .refine((metric) => metric.min === undefined || metric.max === undefined || metric.min <= metric.max, {
    message: 'min must not be greater than max',
    path: ['min'],
  });

const CategoryMetric = z
  .strictObject({
    name: MetricName,
    type: z.literal('category'),
    categories: z.array(z.string().min(1)).min(1).max(256),
  })
  .refine((metric) => new Set(metric.categories).size === metric.categories.length, {
    message: 'categories must be unique',
    path: ['categories'],
  });

/** One metric definition. */
export const MetricDefinitionSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ name: MetricName, type: z.literal('boolean') }),
    z.strictObject({ name: MetricName, type: z.literal('text') }),
    NumberMetric,
    CategoryMetric,
  ])
  .openapi('MetricDefinition');

/** A metric definition. */
export type MetricDefinition = z.output<typeof MetricDefinitionSchema>;

/** The metrics of a scorer version: 1 to 32, names unique. */
export const MetricsSchema = z
  .array(MetricDefinitionSchema)
  .min(1)
  .max(MAX_METRICS)
  .superRefine((metrics, ctx) => {
    const seen = new Set<string>();
    for (const [index, metric] of metrics.entries()) {
      if (seen.has(metric.name)) {
        ctx.addIssue({ code: 'custom', message: 'metric names must be unique', path: [index, 'name'] });
      }
      seen.add(metric.name);
    }
  });
