/**
 * A remote reference as the viewer shows it (spec "Automatic capture of files"): a web URL is a
 * link (opened by the reader's browser, never fetched by the service); an external platform's
 * media reference shows its type and "Held in <platform>", with nothing to open; an object-store
 * URI or a provider file ID is shown as text.
 * @module
 */
import type { RemoteReferenceView } from '../../read/read-model-types.js';

const PLATFORMS: Record<string, string> = { langfuse: 'Langfuse' };

/** Only `http:` and `https:` URLs become links (never `javascript:`, `data:` or others). */
function webUrl(uri: string | undefined): string | undefined {
  if (uri === undefined) return undefined;
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A remote reference. */
export function RemoteView(props: { reference: RemoteReferenceView }) {
  const { reference } = props;
  const type = reference.mediaType === undefined ? null : <span class="badge">{reference.mediaType}</span>;
  const name = reference.name === undefined ? null : <strong>{reference.name} </strong>;
  switch (reference.kind) {
    case 'media_reference': {
      const platform = PLATFORMS[reference.platform ?? ''] ?? reference.platform ?? 'another platform';
      return (
        <div class="remote media-reference">
          {type} <strong>Held in {platform}</strong>{' '}
          <span class="muted">
            (media reference <code>{reference.id}</code>; the service holds no copy)
          </span>
        </div>
      );
    }
    case 'file_id':
      return (
        <div class="remote file-id">
          {type} {name}
          Provider file <code>{reference.fileId ?? '(not included)'}</code>
          {reference.provider === undefined ? null : <span class="muted"> at {reference.provider}</span>}{' '}
          <span class="muted">(held by the provider; the service holds no copy)</span>
        </div>
      );
    case 'uri': {
      const href = reference.link ? webUrl(reference.uri) : undefined;
      return (
        <div class="remote uri">
          {type} {name}
          {href === undefined ? (
            <>
              {reference.objectStore ? 'Object store: ' : 'Reference: '}
              <code>{reference.uri ?? '(not included)'}</code>
            </>
          ) : (
            <>
              Web link:{' '}
              <a href={href} rel="noopener noreferrer" target="_blank">
                {reference.uri}
              </a>
            </>
          )}{' '}
          <span class="muted">(never fetched by the service)</span>
        </div>
      );
    }
  }
}
