/**
 * Files never leave the tool server as bytes in text: recorded values shown with
 * `include_content` (a log body, a custom attribute, a case's inputs) can still hold a file inline
 * — a `data:` URL, or the base64 text of an image in a provider's message format. Those bytes are
 * replaced by a note naming the file (media type when known, size, SHA-256 of the decoded bytes),
 * so the agent sees there is a file and can find it among the span's `files` (and read a stored one
 * through the file resource) without the base64 filling its context.
 *
 * What counts as file bytes: a `data:<type>;base64,` URL of any length, and a run of 1,024 or more
 * base64 characters using 32 or more distinct characters in its first 512 (encoded binary does;
 * long numbers, hex digests or a repeated letter do not). The read API shows values as recorded;
 * only the MCP answers are rewritten.
 * @module
 */
import { createHash } from 'node:crypto';

const DATA_URL = /data:([a-z]+\/[-+.\w]+)((?:;[-\w]+=[-\w.]+)*);base64,([A-Za-z0-9+/]*={0,2})/gi;
const BASE64_RUN = /[A-Za-z0-9+/]{1024,}={0,2}/g;

function note(base64: string, type: string | undefined): string {
  const bytes = Buffer.from(base64, 'base64');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return `[file bytes withheld: ${type === undefined ? '' : `${type}, `}${bytes.length} bytes, sha256 ${sha256}]`;
}

/** `text` with the bytes of files in it replaced by notes. */
export function withoutFileBytesInText(text: string): string {
  if (text.length < 64 || !/data:|[A-Za-z0-9+/]{1024}/.test(text)) return text;
  return text
    .replace(
      DATA_URL,
      (_match, type: string, parameters: string, base64: string) =>
        `data:${type}${parameters};base64,${note(base64, type.toLowerCase())}`,
    )
    .replace(BASE64_RUN, (run) => (new Set(run.slice(0, 512)).size >= 32 ? note(run, undefined) : run));
}

/** `value` (JSON) with the bytes of files in its strings replaced by notes. */
export function withoutFileBytes<T>(value: T): T {
  if (typeof value === 'string') return withoutFileBytesInText(value) as T;
  if (Array.isArray(value)) return value.map((item) => withoutFileBytes(item)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = withoutFileBytes(item);
    return out as T;
  }
  return value;
}
