/**
 * The URI of a trace's file as an MCP resource: `svc://traces/{traceId}/files/{sha256}`.
 * @module
 */

/** The resource template of trace files. */
export const FILE_URI_TEMPLATE = 'svc://traces/{traceId}/files/{sha256}';

/** The resource URI of file `sha256` of trace `traceId`. */
export function fileUri(traceId: string, sha256: string): string {
  return `svc://traces/${traceId}/files/${sha256}`;
}
