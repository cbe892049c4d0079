/**
 * MCP content blocks (`@modelcontextprotocol/sdk` `ContentBlock`: `ImageContent`,
 * `AudioContent`, `EmbeddedResource`, `ResourceLink`): `image` / `audio` (`data` with
 * `mimeType`), `resource` with a `blob` (named by the last segment of its URI; in digest form
 * `sha256`/`size` in `resource`) or `text` (stays text), `resource_link` (a reference).
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { uriReference } from '../media/remote-reference.js';
import { remotePart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { hasMember, objectMember, shortString, stringMember } from '../value/json-value.js';
import { childSite } from '../value/site.js';

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
    return segment;
  }
}

export const mcpParts: PartFormat = {
  name: 'MCP content blocks (@modelcontextprotocol/sdk ContentBlock)',

  read(part, site, reader) {
    const type = shortString(part, 'type');
    if (type === 'image' || type === 'audio') {
      const mediaType = shortString(part, 'mimeType');
      if (mediaType === undefined) return undefined;
      const found = readByteField(
        part,
        site,
        { holderPath: [], field: 'data', encoding: 'base64', mediaType },
        reader.blobs,
      );
      return found === undefined ? undefined : [found];
    }
    if (type === 'resource') {
      const resource = objectMember(part, 'resource');
      if (resource === undefined) return undefined;
      const uri = shortString(resource, 'uri');
      const mediaType = shortString(resource, 'mimeType');
      if (hasMember(resource, 'blob') || hasMember(resource, 'sha256')) {
        const found = readByteField(
          part,
          site,
          {
            holderPath: ['resource'],
            field: 'blob',
            encoding: 'base64',
            mediaType,
            name: lastUriSegment(uri),
          },
          reader.blobs,
        );
        if (found !== undefined) return [found];
      }
      const text = stringMember(resource, 'text');
      if (text !== undefined) return reader.text(text, childSite(childSite(site, 'resource'), 'text'));
      const reference = uri === undefined ? undefined : uriReference(uri, { mediaType });
      return reference === undefined ? undefined : [remotePart(reference, site)];
    }
    if (type === 'resource_link') {
      const uri = stringMember(part, 'uri');
      if (uri === undefined) return undefined;
      const declared = { mediaType: shortString(part, 'mimeType'), name: shortString(part, 'name') };
      const reference = uriReference(uri, declared) ?? { kind: 'uri' as const, uri, objectStore: false };
      return [remotePart(reference, site)];
    }
    return undefined;
  },
};
