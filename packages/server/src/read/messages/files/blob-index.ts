/**
 * The record's own listed files (`svc.blobs` entries, `svc.file` events), looked up the ways a
 * digest-form part is matched to its entry: by key `<attribute>#<pointer>`, else by digest (a
 * file inside a JSON-encoded tool string is "matched by digest"; the same bytes listed under
 * another key have the same type).
 * @module
 */

import type { ListedFile } from '../../../media/listed-files.js';

/** Listed files by key and by digest. */
export class BlobIndex {
  private readonly byKey = new Map<string, ListedFile>();
  private readonly bySha256 = new Map<string, ListedFile[]>();

  constructor(listed: readonly ListedFile[]) {
    for (const file of listed) {
      if (!this.byKey.has(file.key)) this.byKey.set(file.key, file);
      const same = this.bySha256.get(file.sha256);
      if (same === undefined) this.bySha256.set(file.sha256, [file]);
      else same.push(file);
    }
  }

  /** The file listed under `key`, whatever its digest. */
  keyed(key: string): ListedFile | undefined {
    return this.byKey.get(key);
  }

  /**
   * The entry of the file `sha256` at `key`: the entry of that key when it names the same digest,
   * else an entry of the same digest (first one of the same attribute, then a `svc.blobs` entry,
   * then any).
   */
  entry(key: string, sha256: string): ListedFile | undefined {
    const keyed = this.byKey.get(key);
    if (keyed !== undefined && keyed.sha256 === sha256) return keyed;
    const same = this.bySha256.get(sha256);
    if (same === undefined) return undefined;
    const attribute = key.slice(0, key.indexOf('#') + 1);
    return (
      same.find((file) => attribute !== '' && file.key.startsWith(attribute)) ??
      same.find((file) => file.listed) ??
      same[0]
    );
  }
}
