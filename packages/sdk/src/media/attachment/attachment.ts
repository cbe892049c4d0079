/**
 * `Attachment`: a file placed in a recorded value (span input or output, tool or model arguments
 * and results, `recordMessages`). It is recorded in digest form — a `DigestPart` with its SHA-256,
 * size, media type, modality and name — and its bytes upload with the span.
 *
 * Creation never throws. An attachment without exactly one of `data`/`path`, with unreadable or
 * oversized data, or with an invalid content type is recorded as `null`; an invalid name alone is
 * omitted. Each such problem is kept on the attachment (`problem`, `nameProblem`) and, when the
 * attachment is placed in a value a client records, raised as a `warning` export issue (the
 * count of instrumentation failures).
 * @module
 */
import type { DigestPart, FileSource, FoundFile } from '../media-types.js';
import { modalityOf, validFileName } from '../scan/index.js';
import { normalizeMediaType } from './media-type.js';
import { type FileInput, readFileInput } from './read-file-input.js';

const marker = Symbol.for('svc-run.attachment');

/** Options of {@link Attachment}. */
export interface AttachmentOptions extends FileInput {
  /**
   * The media type, e.g. `image/png`. May be left out when `data` is a `data:` URL declaring one;
   * given, it wins over the URL's.
   */
  contentType?: string;
  /** A file name: 1 to 256 characters, nonblank, no control characters. */
  name?: string;
}

interface Held {
  source: FileSource;
  part: DigestPart;
}

const held = new WeakMap<Attachment, Held>();
let serializations = 0;

/**
 * How many times any attachment has been serialized (a counter that only grows): a serializer
 * compares it before and after `JSON.stringify` to learn whether a value held attachments.
 */
export function attachmentSerializations(): number {
  return serializations;
}

/**
 * A file to record in digest form.
 *
 * @example
 * ```ts
 * import { Attachment } from '@svc-run/sdk';
 *
 * const scan = new Attachment({ path: './scan.pdf', contentType: 'application/pdf', name: 'scan.pdf' });
 * await svc.tool('read_document', { document: scan }, () => readDocument('./scan.pdf'));
 * ```
 */
export class Attachment {
  readonly [marker] = true;
  /** SHA-256 of the bytes (64 lowercase hex); `undefined` when the attachment is invalid. */
  readonly sha256: string | undefined;
  /** Size in bytes; `undefined` when invalid. */
  readonly size: number | undefined;
  /** The normalized media type; `undefined` when invalid. */
  readonly contentType: string | undefined;
  /** The file name, when one was given and is valid. */
  readonly name: string | undefined;
  /** Why the attachment is recorded as `null`, or `undefined` when it is valid. */
  readonly problem: string | undefined;
  /** Why the given name was omitted, or `undefined`. */
  readonly nameProblem: string | undefined;

  /** Reads and hashes the bytes (a `path` file with bounded memory). Never throws. */
  constructor(options: AttachmentOptions) {
    const { data, path, contentType, name } = (
      typeof options === 'object' && options !== null ? options : {}
    ) as AttachmentOptions;
    if (name !== undefined) {
      const valid = validFileName(name);
      this.name = valid;
      if (valid === undefined) {
        this.nameProblem =
          'an attachment name was omitted: it must be 1 to 256 characters, nonblank, without control characters';
      }
    }
    const read = readFileInput({ data, path } as FileInput, 'attachment');
    if ('problem' in read) {
      this.problem = read.problem;
      return;
    }
    const mediaType = normalizeMediaType(contentType ?? read.declaredType);
    if (mediaType === undefined) {
      this.problem =
        contentType === undefined && read.declaredType === undefined
          ? 'the attachment has no content type'
          : 'the attachment content type is not a valid media type';
      return;
    }
    this.sha256 = read.sha256;
    this.size = read.size;
    this.contentType = mediaType;
    const part: DigestPart = {
      type: 'blob',
      mime_type: mediaType,
      modality: modalityOf(mediaType),
      sha256: read.sha256,
      size: read.size,
    };
    if (this.name !== undefined) part.name = this.name;
    held.set(this, { source: read.source, part });
  }

  /** Whether the attachment is recorded in digest form (else as `null`). */
  get valid(): boolean {
    return this.problem === undefined;
  }

  /** The digest form recorded in place of the attachment, or `null` when it is invalid. */
  toJSON(): DigestPart | null {
    serializations++;
    const part = held.get(this)?.part;
    return part === undefined ? null : { ...part };
  }

  /** True when `value` is an {@link Attachment}, from any copy of the package. */
  static isInstance(value: unknown): value is Attachment {
    return (
      typeof value === 'object' &&
      value !== null &&
      marker in value &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }
}

/** The file of a valid attachment placed at `key` (`<attribute>#<pointer>`), for upload. */
export function attachmentFile(attachment: Attachment, key: string): FoundFile | undefined {
  const file = held.get(attachment);
  if (file === undefined) return undefined;
  const found: FoundFile = {
    key,
    sha256: file.part.sha256,
    size: file.part.size,
    contentType: file.part.mime_type,
    modality: file.part.modality,
    source: file.source,
  };
  if (file.part.name !== undefined) found.name = file.part.name;
  return found;
}
