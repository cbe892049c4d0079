/**
 * The streams, directory and stop signal a command runs with, so tests can run it in-process.
 * @module
 */

/** Where the CLI writes text. `process.stdout` and `process.stderr` qualify. */
export interface OutputStream {
  write(text: string): unknown;
  /** With `columns`, the width help text is wrapped to when the stream is a terminal. */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** The environment of one {@link run}. */
export interface CliIo {
  /**
   * Input: the JSON-RPC messages of `svc mcp` (stdio); the answers of `svc login` (a hidden key on
   * a terminal, or the key with `--key-stdin`). `process.stdin` by default.
   */
  stdin?: InputStream | undefined;
  /** The environment `svc mcp` reads without `--env-file`. `process.env` by default. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Normal output: help, the server's origin, the env file's path. */
  stdout: OutputStream;
  /** Usage errors and failures. */
  stderr: OutputStream;
  /** Directory relative paths (such as the default `.svc-data`) resolve against. */
  cwd: string;
  /**
   * Stops `svc serve` when aborted. Without one, `svc serve` stops on SIGINT or SIGTERM. Also
   * interrupts `svc eval` (exit code 130).
   */
  signal?: AbortSignal | undefined;
}

/** Where the CLI reads text. `process.stdin` qualifies. */
export interface InputStream extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
}

/** `io` with the process's own streams and working directory filled in where missing. */
export function resolveIo(io: Partial<CliIo> = {}): CliIo {
  return {
    stdin: io.stdin ?? process.stdin,
    env: io.env ?? process.env,
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    cwd: io.cwd ?? process.cwd(),
    signal: io.signal,
  };
}
