/**
 * Recorded files (spec "Recorded file"): the `svc.file` span event for a file the work read,
 * received or produced — `svc.file.sha256`, `svc.file.size`, `svc.file.media_type`,
 * `svc.file.role`, optional `svc.file.name` — and, with `upload: true`, the file to upload under
 * the key `event:svc.file:<sha256>`. Never throws: what cannot be recorded is a problem to report.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { FoundFile } from '../media-types.js';
import { modalityOf, validFileName } from '../scan/index.js';
import { normalizeMediaType } from './media-type.js';
import { type FileInput, readFileInput } from './read-file-input.js';

/** The name of the span event of a recorded file. */
export const FILE_EVENT = 'svc.file';
/** The roles of a recorded file. */
export const FILE_ROLES = ['input', 'attachment', 'output'] as const;
/** The role of a recorded file: what the work did with it. */
export type FileRole = (typeof FILE_ROLES)[number];

/** Options of `recordFile`. */
export interface RecordFileOptions extends FileInput {
  /** `input` (the work read it), `attachment` (it came with the request) or `output` (produced). */
  role: FileRole;
  /** The media type, e.g. `application/pdf`. */
  mediaType: string;
  /** A file name: 1 to 256 characters, nonblank, no control characters. */
  name?: string;
  /** Also upload the bytes (default false: only the event is recorded). */
  upload?: boolean;
}

/** The `svc.blobs` key of a recorded file. */
export function fileEventKey(sha256: string): string {
  return `event:${FILE_EVENT}:${sha256}`;
}

/** What to record for a file, and the problems met (warnings). */
export type RecordedFile =
  | {
      /** The attributes of the `svc.file` event. */
      attributes: Attributes;
      /** The file to upload, when `upload` is true. */
      upload: FoundFile | undefined;
      /** Problems that did not prevent recording (an omitted name). */
      problems: string[];
    }
  | { problem: string };

/** Reads and hashes the file of `options` (a `path` file with bounded memory). Never throws. */
export function recordedFile(options: RecordFileOptions): RecordedFile {
  if (typeof options !== 'object' || options === null) {
    return { problem: 'recordFile needs an options object with role, mediaType and data or path' };
  }
  if (!(FILE_ROLES as readonly unknown[]).includes(options.role)) {
    return { problem: 'recordFile role must be input, attachment or output' };
  }
  const mediaType = normalizeMediaType(options.mediaType);
  if (mediaType === undefined) return { problem: 'recordFile mediaType is not a valid media type' };
  const read = readFileInput({ data: options.data, path: options.path } as FileInput, 'recorded file');
  if ('problem' in read) return { problem: read.problem };
  const problems: string[] = [];
  let name: string | undefined;
  if (options.name !== undefined) {
    name = validFileName(options.name);
    if (name === undefined) {
      problems.push(
        'a recorded file name was omitted: it must be 1 to 256 characters, nonblank, without control characters',
      );
    }
  }
  const attributes: Attributes = {
    'svc.file.sha256': read.sha256,
    'svc.file.size': read.size,
    'svc.file.media_type': mediaType,
    'svc.file.role': options.role,
  };
  if (name !== undefined) attributes['svc.file.name'] = name;
  let upload: FoundFile | undefined;
  if (options.upload === true) {
    upload = {
      key: fileEventKey(read.sha256),
      sha256: read.sha256,
      size: read.size,
      contentType: mediaType,
      modality: modalityOf(mediaType),
      source: read.source,
    };
    if (name !== undefined) upload.name = name;
  }
  return { attributes, upload, problems };
}
