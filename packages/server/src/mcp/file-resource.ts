/**
 * The file resource `svc://traces/{traceId}/files/{sha256}`: a file of a trace, for an agent to
 * look at. A stored image or audio file of a type models take (PNG, JPEG, GIF, WebP; WAV, MP3,
 * OGG, WebM, FLAC) up to 5 MiB comes back as its bytes (a blob of that media type, which hosts
 * hand to the model as an image or audio block); any other file comes back as its metadata (JSON:
 * digest, type, size, name, state, the spans listing it, and why its bytes are not sent). Never a
 * download link: links are credentials.
 *
 * Reading a file is asking for its bytes, as `include_content: true` is for text: the keys the
 * tool server accepts (Read, Read and write, the MCP Read key) all read recorded content.
 * @module
 */

import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isTraceIdHex } from '../otlp/ids.js';
import { FILE_URI_TEMPLATE } from './file-uri.js';
import type { McpSources } from './mcp-sources.js';

/** Largest file sent as bytes (larger images are over what model APIs take anyway). */
export const MAX_RESOURCE_FILE_BYTES = 5 * 1024 * 1024;

/** Media types models take, sent as bytes. */
export const MODEL_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
]);

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

/** Most listings of a file the metadata names. */
const MAX_LISTINGS_SHOWN = 20;

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Reads file `sha256` of trace `traceId` as the resource `uri`. */
export async function readFileResource(
  sources: McpSources,
  uri: string,
  traceId: string,
  sha256: string,
): Promise<ReadResourceResult> {
  if (!isTraceIdHex(traceId) || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `Resource not found: ${FILE_URI_TEMPLATE} takes a 32-hex trace ID and a 64-hex SHA-256.`,
    );
  }
  const listed = sources.files.listed(traceId, { sha256 });
  const holding = await sources.files.holding(traceId, sha256);
  if (listed.length === 0 && holding === undefined) {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      'Resource not found: the trace lists and holds no file of this SHA-256.',
    );
  }
  const state = holding === undefined ? 'not uploaded' : holding.readable ? 'stored' : 'unavailable';
  const contentType = listed[0]?.contentType ?? holding?.file.contentType ?? 'application/octet-stream';
  const size = holding?.file.size ?? listed[0]?.size ?? 0;
  const type = mediaType(contentType);
  let reason: string;
  if (state !== 'stored') {
    reason = `The file is ${state}: its bytes cannot be read.`;
  } else if (!MODEL_MEDIA_TYPES.has(type)) {
    reason = `${type} is not an image or audio type models take; only its metadata is sent.`;
  } else if (size > MAX_RESOURCE_FILE_BYTES) {
    reason = `The file is over ${MAX_RESOURCE_FILE_BYTES} bytes; only its metadata is sent.`;
  } else {
    const blob = await sources.files.blobs.open(sha256);
    if (blob !== undefined) {
      const bytes = await readAll(blob.stream);
      return { contents: [{ uri, mimeType: type, blob: bytes.toString('base64') }] };
    }
    reason = 'The file is unavailable: its stored bytes cannot be read.';
  }
  const name = listed.find((file) => file.name !== null && file.name !== undefined)?.name;
  const metadata = {
    traceId,
    sha256,
    size,
    contentType,
    ...(name === undefined || name === null ? {} : { name }),
    state,
    listedBy: listed.slice(0, MAX_LISTINGS_SHOWN).map((file) => ({ spanId: file.spanId, key: file.key })),
    ...(listed.length > MAX_LISTINGS_SHOWN ? { moreListings: listed.length - MAX_LISTINGS_SHOWN } : {}),
    bytesSent: false,
    reason,
  };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(metadata) }] };
}

/** Registers the file resource template on `server`. */
export function registerFileResource(server: McpServer, sources: McpSources): void {
  server.registerResource(
    'trace-file',
    new ResourceTemplate(FILE_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A file of a trace',
      description:
        'A file a span recorded, by SHA-256 (files[].sha256 of get_span): a stored image or audio file models take (up to 5 MiB) as its bytes, anything else as JSON metadata (type, size, state, listings).',
    },
    (uri, variables) =>
      readFileResource(sources, uri.href, String(variables.traceId ?? ''), String(variables.sha256 ?? '')),
  );
}
