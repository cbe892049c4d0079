/**
 * `@svc-run/io`: the file and stream I/O that the SDK, the server and the CLI share, kept once:
 * durable replacement of small files (`writeFileDurably`). A private workspace package: each package's build bundles it (tsup
 * `noExternal`), and it is never published.
 * @module
 */
export {
  type DurableWriteFs,
  syncDirectory,
  TEMP_SUFFIX,
  type WriteFileDurablyOptions,
  writeFileDurably,
} from './write-file-durably.js';
