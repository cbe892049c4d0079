/**
 * A record's attributes by name, each value as the text it holds (a `stringValue`, to be parsed
 * or read as text) or as a JSON value (any other `AnyValue`, converted).
 * @module
 */

import type { KeyValue } from '../../otlp/model.js';
import { anyValueToJson } from './value/any-value-json.js';

/** An attribute's value: text, or a structured value already JSON. */
export type AttributeValue = { kind: 'text'; text: string } | { kind: 'json'; value: unknown };

/** The attributes of one span or log record. */
export class RecordValues {
  /** Attribute names in recorded order (the first of repeated names). */
  readonly names: readonly string[];
  private readonly values = new Map<string, KeyValue['value']>();

  constructor(attributes: readonly KeyValue[]) {
    const names: string[] = [];
    for (const attribute of attributes) {
      if (typeof attribute?.key !== 'string' || this.values.has(attribute.key)) continue;
      this.values.set(attribute.key, attribute.value);
      names.push(attribute.key);
    }
    this.names = names;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The value of `name`, or `undefined` when absent or empty. */
  value(name: string): AttributeValue | undefined {
    const value = this.values.get(name);
    if (value === undefined || value === null || typeof value !== 'object') return undefined;
    if ('stringValue' in value && typeof value.stringValue === 'string')
      return { kind: 'text', text: value.stringValue };
    const json = anyValueToJson(value);
    return json === undefined ? undefined : { kind: 'json', value: json };
  }

  /** The value of `name` as a short string (a name, ID or media type), when it is one. */
  string(name: string): string | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    const text =
      value.kind === 'text' ? value.text : typeof value.value === 'number' ? String(value.value) : undefined;
    return text !== undefined && text.length <= 1024 ? text : undefined;
  }
}
