/**
 * MCP tool results (`@modelcontextprotocol/sdk` `CallToolResult` content: `ImageContent`,
 * `AudioContent`, `EmbeddedResource` with `BlobResourceContents`).
 *
 * - `{ type: "image" | "audio", data, mimeType }`: `data` removed, `sha256`/`size` added.
 * - `{ type: "resource", resource: { uri, mimeType?, blob } }`: `blob` removed, `sha256`/`size`
 *   added in `resource`; the name is the last segment of the URI. A resource with `text`
 *   (`TextResourceContents`) stays text; `resource_link` is a reference.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString } from './recognizer.js';

/** The last path segment of `uri` (query and fragment dropped, percent-decoded), if any. */
export function lastUriSegment(uri: string | undefined): string | undefined {
  if (uri === undefined) return undefined;
  let end = uri.length;
  const query = uri.indexOf('?');
  if (query >= 0) end = query;
  const fragment = uri.indexOf('#');
  if (fragment >= 0 && fragment < end) end = fragment;
  const path = uri.slice(0, end);
  const segment = path.slice(path.lastIndexOf('/') + 1);
  if (segment === '' || segment.includes(':')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not percent-encoded properly: the segment as written
  }
}

export const mcp: Recognizer = {
  convention: 'MCP tool results (@modelcontextprotocol/sdk CallToolResult content)',
  types: ['image', 'audio', 'resource'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    if ((type === 'image' || type === 'audio') && hasString(reader, part, 'mimeType')) {
      if (!hasString(reader, part, 'data')) return undefined;
      return {
        form: `mcp.${type}`,
        holderPath: [],
        field: 'data',
        encoding: 'base64',
        mediaType: memberString(reader, part, 'mimeType'),
        modality: type,
      };
    }
    if (type === 'resource') {
      const resource = memberObject(reader, part, 'resource');
      if (resource === undefined || !hasString(reader, resource, 'blob')) return undefined;
      return {
        form: 'mcp.resource',
        holderPath: ['resource'],
        field: 'blob',
        encoding: 'base64',
        mediaType: memberString(reader, resource, 'mimeType'),
        name: lastUriSegment(memberString(reader, resource, 'uri')),
      };
    }
    return undefined;
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    if ((type === 'image' || type === 'audio') && hasString(reader, part, 'mimeType')) {
      if (!isDigestAt(reader, part, [], 'data')) return undefined;
      return {
        form: `mcp.${type}`,
        holderPath: [],
        field: 'data',
        restoreAs: 'base64',
        mediaType: memberString(reader, part, 'mimeType'),
      };
    }
    if (type === 'resource' && isDigestAt(reader, part, ['resource'], 'blob')) {
      const resource = memberObject(reader, part, 'resource')!;
      return {
        form: 'mcp.resource',
        holderPath: ['resource'],
        field: 'blob',
        restoreAs: 'base64',
        mediaType: memberString(reader, resource, 'mimeType'),
      };
    }
    return undefined;
  },
};
