/**
 * `@svc-run/io`: the file and stream I/O that the SDK, the server and the CLI share, kept once:
 * durable replacement of small files (`writeFileDurably`) and reading a bounded body from a stream
 * (`readCapped`). A private workspace package: each package's build bundles it (tsup
 * `noExternal`), and it is never published.
 * @module
 */
export { readCapped } from './read-capped.js';
export {
  type DurableWriteFs,
  syncDirectory,
  TEMP_SUFFIX,
  type WriteFileDurablyOptions,
  writeFileDurably,
} from './write-file-durably.js';
