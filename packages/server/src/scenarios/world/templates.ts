/**
 * Where a tool's arguments enter its effect: pointer templates (`/orders/{order_id}`) and value
 * templates (`{ "$arg": "amount" }`).
 *
 * - In a pointer template, `{name}` is replaced by the argument `name` as one reference token,
 *   escaped (`~` → `~0`, `/` → `~1`): whatever the agent sends, it names one key below the
 *   template's fixed prefix, never a parent, a sibling path or anything outside the state. The
 *   argument must be a string or an integer.
 * - In a value template, an object `{ "$arg": "name" }` (that one key) is replaced by the
 *   argument's JSON value. As an object's property, an absent argument leaves the property out;
 *   anywhere else it is an error the agent sees.
 * @module
 */
import { escapeToken, type JsonValue, parsePointer } from './json-pointer.js';

/** The arguments of one tool call (validated against the tool's schema: a JSON object). */
export type ToolArguments = Readonly<Record<string, JsonValue>>;

/** A template that could not be filled: the argument and why. */
export interface TemplateGap {
  argument: string;
  reason: 'missing' | 'not_a_name';
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The argument names a pointer template uses. */
export function pointerPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/**
 * The reference tokens of `template` with `args` filled in.
 *
 * @throws PointerSyntaxError when the template itself is not a pointer (checked at publish).
 */
export function fillPointer(
  template: string,
  args: ToolArguments,
): { ok: true; tokens: string[] } | { ok: false; gap: TemplateGap } {
  let gap: TemplateGap | undefined;
  const filled = template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    if (value === undefined) {
      gap ??= { argument: name, reason: 'missing' };
      return '';
    }
    if (typeof value === 'string') return escapeToken(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    gap ??= { argument: name, reason: 'not_a_name' };
    return '';
  });
  if (gap !== undefined) return { ok: false, gap };
  return { ok: true, tokens: parsePointer(filled) };
}

/** Whether `value` is an argument reference `{ "$arg": "<name>" }`. */
export function argumentReference(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const name = (value as Record<string, unknown>).$arg;
  return keys.length === 1 && keys[0] === '$arg' && typeof name === 'string' ? name : undefined;
}

/** Every argument name a value template refers to. */
export function valueReferences(template: unknown): string[] {
  const name = argumentReference(template);
  if (name !== undefined) return [name];
  if (Array.isArray(template)) return template.flatMap(valueReferences);
  if (typeof template === 'object' && template !== null)
    return Object.values(template).flatMap(valueReferences);
  return [];
}

/** `template` with its argument references filled in from `args`. */
export function fillValue(
  template: JsonValue,
  args: ToolArguments,
): { ok: true; value: JsonValue } | { ok: false; gap: TemplateGap } {
  const name = argumentReference(template);
  if (name !== undefined) {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    return value === undefined
      ? { ok: false, gap: { argument: name, reason: 'missing' } }
      : { ok: true, value };
  }
  if (Array.isArray(template)) {
    const items: JsonValue[] = [];
    for (const item of template) {
      const filled = fillValue(item, args);
      if (!filled.ok) return filled;
      items.push(filled.value);
    }
    return { ok: true, value: items };
  }
  if (typeof template === 'object' && template !== null) {
    const object: Record<string, JsonValue> = {};
    for (const key of Object.keys(template)) {
      const item = template[key]!;
      const reference = argumentReference(item);
      // An optional argument left out leaves its property out.
      if (reference !== undefined && (!Object.hasOwn(args, reference) || args[reference] === undefined))
        continue;
      const filled = fillValue(item, args);
      if (!filled.ok) return filled;
      Object.defineProperty(object, key, {
        value: filled.value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return { ok: true, value: object };
  }
  return { ok: true, value: template };
}
