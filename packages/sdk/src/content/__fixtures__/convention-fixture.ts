/**
 * The shape of a convention fixture: span attributes as an instrumentation of that convention
 * records them, with the names the content policy must remove when capture is off.
 * @module
 */

import type { Attributes } from '@opentelemetry/api';

/** Span attributes of one convention, mixing content and non-content attributes. */
export interface ConventionFixture {
  /** The convention's name, as in the content attribute table. */
  convention: string;
  /** Where the attribute names and value shapes come from. */
  source: string;
  /** A span name as the convention's instrumentation writes it. */
  spanName: string;
  /** The attributes, content and non-content mixed. */
  attributes: Attributes;
  /** The names in `attributes` that are content: removed with capture off, all others kept. */
  contentAttributes: readonly string[];
}
