/**
 * A file as the viewer shows it: in place (an image shown, audio and video playable, raw PCM
 * playable as WAV) or as a link with its name, type and size; always with its SHA-256 (shortened,
 * whole on hover and when copied), size and state. A file that is not stored (and not held inline
 * by its record) shows its state and nothing to open.
 * @module
 */
import type { FileState, SpanFileView } from '../../read/read-model-types.js';
import { presentationOf } from '../files/file-presentation.js';
import { isRawPcm } from '../files/raw-pcm.js';
import { exactBytes, formatBytes, shortSha } from '../format.js';
import { fileHref } from '../viewer-links.js';

const STATE_LABELS: Record<FileState, string> = {
  stored: 'Stored',
  'not uploaded': 'Not uploaded',
  unavailable: 'Unavailable',
};

const STATE_HINTS: Record<FileState, string> = {
  stored: 'The service holds the bytes.',
  'not uploaded': 'Not yet uploaded, never uploaded, or erased: the record keeps only the digest.',
  unavailable: 'The service could not read the stored bytes.',
};

/** Where the file is: its trace and the span whose records hold it. */
export interface FilePlace {
  traceId: string;
  spanId: string;
}

/** A file's state label. */
export function StateLabel(props: { state: FileState }) {
  return (
    <span class={`state ${props.state.replace(' ', '-')}`} title={STATE_HINTS[props.state]}>
      {STATE_LABELS[props.state]}
    </span>
  );
}

/** A SHA-256: its start shown, the whole in the text (copied whole when selected) and title. */
export function Sha(props: { sha256: string }) {
  return (
    <>
      <code class="sha" title={`SHA-256 ${props.sha256}`}>
        {props.sha256}
      </code>
      <button type="button" class="copy" data-copy={props.sha256} title="Copy the whole SHA-256">
        copy
      </button>
    </>
  );
}

/** Whether the viewer can serve the file's bytes: stored, or held inline by its record. */
export function canOpen(file: SpanFileView): boolean {
  return file.state === 'stored' || file.form === 'inline';
}

/** Name, type, size, digest and state of a file (and a download link, given `download`). */
export function FileFacts(props: {
  file: SpanFileView;
  role?: boolean;
  hideName?: boolean;
  download?: string;
}) {
  const { file } = props;
  return (
    <div class="fm">
      {file.name === undefined || props.hideName ? null : <span class="name">{file.name}</span>}
      <span>{file.contentType}</span>
      <span title={exactBytes(file.size)}>{formatBytes(file.size)}</span>
      <span>
        SHA-256 <Sha sha256={file.sha256} />
      </span>
      <StateLabel state={file.state} />
      {file.form === 'inline' ? (
        <span class="badge" title="The record holds the bytes themselves (sent inline, never uploaded)">
          inline in the record
        </span>
      ) : null}
      {props.role && file.role !== undefined ? <span class="badge">{file.role}</span> : null}
      {isRawPcm(file.contentType) && presentationOf(file.contentType) === 'link' ? (
        <span class="muted" title="Raw PCM plays only with a rate of 8000 to 192000 and 1 or 2 channels">
          raw PCM without a valid rate: download only
        </span>
      ) : null}
      {props.download === undefined ? null : (
        <a href={props.download} download={file.name ?? ''}>
          Download
        </a>
      )}
    </div>
  );
}

/** A file in place: shown or playable when it can be opened, else its facts only. */
export function FileInPlace(props: { file: SpanFileView; place: FilePlace; role?: boolean }) {
  const { file, place } = props;
  const label = file.name ?? `${file.contentType} file ${shortSha(file.sha256)}`;
  const src = fileHref(place.traceId, file.sha256, place.spanId);
  const download = fileHref(place.traceId, file.sha256, place.spanId, { download: true });
  let shown: unknown = null;
  if (canOpen(file)) {
    switch (presentationOf(file.contentType)) {
      case 'image':
        shown = <img src={src} alt={label} loading="lazy" data-sha256={file.sha256} />;
        break;
      case 'audio':
        // biome-ignore lint/a11y/useMediaCaption: recorded audio comes with no captions to offer
        shown = <audio controls preload="none" src={src} title={label} />;
        break;
      case 'video':
        // biome-ignore lint/a11y/useMediaCaption: recorded video comes with no captions to offer
        shown = <video controls preload="metadata" src={src} title={label} />;
        break;
      case 'pcm':
        shown = (
          // biome-ignore lint/a11y/useMediaCaption: recorded audio comes with no captions to offer
          <audio
            controls
            preload="none"
            src={fileHref(place.traceId, file.sha256, place.spanId, { wav: true })}
            title={`${label} (raw PCM played as WAV)`}
          />
        );
        break;
      case 'link':
        shown = (
          <a class="doc" href={download} download={file.name ?? ''}>
            {label}
          </a>
        );
        break;
    }
  }
  const presentation = presentationOf(file.contentType);
  const opens = canOpen(file);
  return (
    <div class={`file ${presentation}`} data-sha256={file.sha256} data-state={file.state}>
      {shown}
      <FileFacts
        file={file}
        role={props.role}
        hideName={opens && presentation === 'link'}
        {...(opens && presentation !== 'link' ? { download } : {})}
      />
    </div>
  );
}
