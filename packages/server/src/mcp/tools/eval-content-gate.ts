/**
 * Content gating of evaluation records, as the read model gates spans: without
 * `include_content`, what a case or an agent recorded — a case's inputs, expected output and
 * metadata, an execution's output and error message, a result's explanation, evidence and error
 * message — is left out, and `withheld` maps each such field to its size (UTF-8 bytes of its
 * JSON text; a string's own bytes).
 * @module
 */

function sizeOf(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), 'utf8');
}

/**
 * `record` with the present `fields` (top-level names, or `error.message`) left out unless
 * `includeContent`, and their sizes in `withheld` (absent when nothing was left out).
 */
export function gateContent<T extends object>(
  record: T,
  fields: readonly string[],
  includeContent: boolean,
): T & { withheld?: Record<string, number> } {
  if (includeContent) return record;
  const gated: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  const withheld: Record<string, number> = {};
  for (const field of fields) {
    const [name, inner] = field.split('.') as [string, string | undefined];
    const value = gated[name];
    if (inner === undefined) {
      if (value === undefined) continue;
      withheld[field] = sizeOf(value);
      delete gated[name];
    } else if (typeof value === 'object' && value !== null && inner in value) {
      const { [inner]: hidden, ...kept } = value as Record<string, unknown>;
      withheld[field] = sizeOf(hidden);
      gated[name] = kept;
    }
  }
  return (Object.keys(withheld).length === 0 ? gated : { ...gated, withheld }) as T & {
    withheld?: Record<string, number>;
  };
}

/** A case's recorded fields. */
export const CASE_CONTENT = ['inputs', 'expected', 'metadata'] as const;
/** An execution's. */
export const EXECUTION_CONTENT = ['output', 'error.message'] as const;
/** A result's. */
export const RESULT_CONTENT = ['explanation', 'evidence', 'error.message'] as const;
