/**
 * Helper content (span input and output, tool arguments and results, messages): JSON text of at
 * most 256 KiB per field. `null`, `false`, `0` and `""` are present values; `undefined` omits.
 * An `Attachment` anywhere in the value is recorded in digest form, and reported with its JSON
 * pointer so its bytes can upload with the record.
 * @module
 */
import { whyNotJson } from '../diagnostics/json-failure.js';
import { Attachment, attachmentSerializations } from '../media/attachment/attachment.js';
import { escapePointerToken } from '../media/scan/json/json-pointer.js';

/** Largest JSON text of one helper content field, in UTF-8 bytes. */
export const MAX_HELPER_CONTENT_BYTES = 256 * 1024;

/** An attachment found in a helper content value, and where. */
export interface PlacedAttachment {
  /** JSON pointer (RFC 6901) to the attachment in the value; `''` when it is the whole value. */
  pointer: string;
  attachment: Attachment;
}

/**
 * The JSON text of a helper content field (with the attachments it holds, if any), or why it
 * cannot be recorded.
 */
export type HelperContent =
  | { json: string; attachments?: PlacedAttachment[] }
  | { omitted: true }
  | { problem: string };

/** `JSON.stringify(value)`, listing each attachment met with its JSON pointer. */
function stringifyWithAttachments(value: unknown): {
  json: string | undefined;
  attachments: PlacedAttachment[];
} {
  const pointers = new WeakMap<object, string>();
  const attachments: PlacedAttachment[] = [];
  const json = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, replaced: unknown) {
      const parent = pointers.get(this);
      const pointer = parent === undefined ? '' : `${parent}/${escapePointerToken(key)}`;
      const original = this[key];
      if (Attachment.isInstance(original)) attachments.push({ pointer, attachment: original });
      else if (typeof replaced === 'object' && replaced !== null) pointers.set(replaced, pointer);
      return replaced;
    },
  );
  return { json, attachments };
}

/** Serializes `value` for the field `field`. */
export function helperContent(value: unknown, field: string): HelperContent {
  if (value === undefined) return { omitted: true };
  let json: string | undefined;
  let attachments: PlacedAttachment[] | undefined;
  try {
    const before = attachmentSerializations();
    json = JSON.stringify(value);
    if (attachmentSerializations() !== before) ({ json, attachments } = stringifyWithAttachments(value));
  } catch (error) {
    return { problem: `${field} was not recorded: it does not serialize as JSON (${whyNotJson(error)})` };
  }
  if (json === undefined) {
    return { problem: `${field} was not recorded: it does not serialize as JSON (it is a ${typeof value})` };
  }
  if (Buffer.byteLength(json) > MAX_HELPER_CONTENT_BYTES) {
    return { problem: `${field} was not recorded: its JSON is over 256 KiB` };
  }
  return attachments === undefined ? { json } : { json, attachments };
}
