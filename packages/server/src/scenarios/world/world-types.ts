/**
 * The world of a scenario as the engine runs it: the tools with their declared effects. The
 * scenario document's schema (`document/scenario-document-schema.ts`) produces these shapes.
 * @module
 */
import type { JsonValue } from './json-pointer.js';

/** A condition checked before a tool's effect; a false one is the error result `error`. */
export type Precondition =
  | { assert: 'exists' | 'absent'; pointer: string; error: string }
  | { assert: 'equals' | 'not_equals'; pointer: string; value: JsonValue; error: string };

/** How a query compares an item's value with the filter's. */
export type FilterOperator = 'equals' | 'not_equals' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';

/** One filter of a query: `path` is a pointer into each item. */
export interface QueryFilter {
  path: string;
  op: FilterOperator;
  value: JsonValue;
}

/** A tool's effect on the state: one operation of a small fixed set. */
export type Effect =
  | { op: 'read'; pointer: string; notFound?: string | undefined }
  | {
      op: 'query';
      pointer: string;
      where?: QueryFilter[] | undefined;
      limit?: number | undefined;
      notFound?: string | undefined;
    }
  | {
      op: 'create';
      pointer: string;
      value: JsonValue;
      exists?: string | undefined;
      notFound?: string | undefined;
    }
  | { op: 'update' | 'merge'; pointer: string; value: JsonValue; notFound?: string | undefined }
  | { op: 'delete'; pointer: string; notFound?: string | undefined };

/** A tool of the world. */
export interface WorldTool {
  name: string;
  description: string;
  /** The JSON Schema (draft 2020-12) of the arguments: an object schema. */
  arguments: Record<string, unknown>;
  preconditions?: Precondition[] | undefined;
  effect: Effect;
}

/** What a call answers the agent: a result, or an error result with a message. */
export type ToolResult = { isError: false; value: JsonValue } | { isError: true; message: string };
