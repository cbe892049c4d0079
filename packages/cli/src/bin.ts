#!/usr/bin/env node
/**
 * The `svc` executable.
 * @module
 */
import { unsupportedNodeVersion } from './node-version.js';
import { suppressSqliteExperimentalWarning } from './warnings.js';

const unsupported = unsupportedNodeVersion(process.versions.node);
if (unsupported === undefined) {
  // The server imports `node:sqlite` on this thread (its own threads keep quiet by themselves).
  suppressSqliteExperimentalWarning();
  // Imported only now: loading the server imports `node:sqlite`, which emits the warning.
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
} else {
  process.stderr.write(`error: ${unsupported}\n`);
  process.exitCode = 1;
}
