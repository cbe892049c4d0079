/**
 * The shapes and limits shared by the media scanner, the uploader and the media reader (spec
 * "Digest-form file part", "Span attributes and event owned by the service", "Limits").
 * @module
 */

/** The kind of a file, as a digest-form part names it. */
export type Modality = 'image' | 'audio' | 'video' | 'document';

/** A file part in digest form: what replaces a file's bytes in a recorded message. */
export interface DigestPart {
  type: 'blob';
  mime_type: string;
  modality: Modality;
  /** 64 lowercase hex characters: SHA-256 of the decoded bytes. */
  sha256: string;
  /** Decoded size in bytes. */
  size: number;
  name?: string;
}

/** One entry of the `svc.blobs` attribute (stored as compact JSON, one string per file). */
export interface BlobEntry {
  /** Where the file is: `<attribute>#<JSON pointer>`, `<attribute>#`, `event:svc.file:<sha256>`, `body#<pointer>`. */
  key: string;
  sha256: string;
  size: number;
  content_type: string;
  /** 1 to 256 UTF-16 code units; see `validFileName`. */
  name?: string;
}

/** The span and log attribute listing a record's uploaded files. */
export const BLOBS_ATTRIBUTE = 'svc.blobs';
/** Entries of `svc.blobs` per record. */
export const MAX_BLOB_ENTRIES = 64;
/** A scanned attribute value longer than this (UTF-8 bytes) uploads whole, keeping a prefix. */
export const INLINE_VALUE_LIMIT = 1024 * 1024;
/** The UTF-8-safe prefix kept inline for a value or a text file that uploads. */
export const INLINE_PREFIX_BYTES = 16 * 1024;
/** Text data URLs, and media in records that never upload, stay inline up to this size. */
export const TEXT_INLINE_LIMIT = 64 * 1024;
/** Large strings are decoded, hashed and uploaded in slices of this many bytes. */
export const SLICE_BYTES = 1024 * 1024;
/** The largest file the service stores. */
export const MAX_FILE_BYTES = 1_000_000_000;
/** The largest `data` of an Attachment or a recorded file. */
export const MAX_DATA_BYTES = 25 * 1024 * 1024;
/** Bytes held in memory for uploads not yet done. */
export const UPLOAD_BUDGET_BYTES = 128 * 1024 * 1024;

/** Where the bytes of a found file are, for hashing and upload without copying them whole. */
export type FileSource =
  /** Decoded bytes held in memory. */
  | { kind: 'bytes'; bytes: Uint8Array }
  /**
   * Base64 (standard or URL-safe, padding optional) characters `text.slice(start, end)`, with no
   * JSON escapes: decoded slice by slice when hashed or uploaded.
   */
  | { kind: 'base64'; text: string; start: number; end: number }
  /** Text recorded with a textual media type: the bytes are its UTF-8 encoding. */
  | { kind: 'utf8'; text: string }
  /** A file on disk; must be unchanged (size and modification time) until it uploads. */
  | { kind: 'path'; path: string; size: number; mtimeMs: number };

/** A file the scanner found in a recorded value. */
export interface FoundFile {
  /** The `svc.blobs` key of the place the file was found. */
  key: string;
  sha256: string;
  size: number;
  /** The media type recorded for the file (with `rate`/`channels` parameters for raw PCM). */
  contentType: string;
  modality: Modality;
  name?: string;
  source: FileSource;
}

/**
 * What becomes of a found file, decided by the caller in reading order:
 * - `upload`: digest form, listed in `svc.blobs`, bytes uploaded afterwards;
 * - `digest`: digest form, not listed, not uploaded (a refused file in a message attribute, or
 *   media over 64 KiB in a record that never uploads);
 * - `keep`: left exactly as recorded.
 */
export type FileDecision = 'upload' | 'digest' | 'keep';

/** Called by the scanner for each file it finds, in reading order. */
export type DecideFile = (file: FoundFile) => FileDecision;
