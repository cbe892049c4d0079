/**
 * The media scanner (internal to the SDK): finds inline files in recorded values and puts them in
 * digest form, and finds digest-form parts again for reading files back. See the SDK README,
 * "Files in recorded messages".
 * @module
 */

export { BASE64_SLICE_UNITS, type Base64Digest, base64Slices, digestBase64 } from './digest/base64-digest.js';
export { digestSource } from './digest/source-digest.js';
export { digestUtf8, utf8Prefix } from './digest/utf8-text.js';
export { type DigestHolder, findDigestHolders } from './find-digest-holders.js';
export { formatPointer, parsePointer } from './json/json-pointer.js';
export { type DataUrlHeader, parseDataUrl } from './media/data-url.js';
export { isTextualMediaType, mediaTypeEssence, modalityOf, UNKNOWN_MEDIA_TYPE } from './media/media-type.js';
export {
  isRawPcm,
  PCM16_CONTENT_TYPE,
  pcmContentType,
  recordedContentType,
} from './media/pcm-content-type.js';
export { sniffMediaType } from './media/sniff-media-type.js';
export { attributeMayHoldFiles, type ScanContext, type ScanResult, scanAttribute } from './scan-attribute.js';
export { type StructuredScanResult, scanStructured } from './scan-structured.js';
export { MAX_FILE_NAME_UNITS, validFileName } from './valid-file-name.js';
