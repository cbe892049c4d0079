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
  const code = await run(process.argv);
  process.exitCode = code;
  // The command is over. An agent file `svc eval --scenario` or `--worker` loaded may still hold
  // timers or sockets (an agent stopped by --timeout or Ctrl-C): they must not keep svc alive. It
  // ends once its output is written.
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => stream.write('', () => resolve())),
    ),
  );
  process.exit(code);
} else {
  process.stderr.write(`error: ${unsupported}\n`);
  process.exitCode = 1;
}
