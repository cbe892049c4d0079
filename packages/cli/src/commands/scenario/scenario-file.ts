/**
 * Reading a scenario document from a JSON or YAML file (the `yaml` package: JSON is YAML 1.2, so
 * one parser reads both, with line numbers), and finding where in the file a JSON Pointer of the
 * service's problems points, so each problem is shown as `file:line:column`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { type Document, LineCounter, parseDocument } from 'yaml';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';

/** A parsed scenario file. */
export interface ScenarioFile {
  /** The file (as given, resolved). */
  path: string;
  /** The document as JSON. */
  value: unknown;
  /** The line and column (1-based) of what `pointer` names in the file, or of its nearest parent there. */
  positionOf(pointer: string): { line: number; col: number };
}

/** Largest scenario file read (the service takes 1 MiB documents; YAML is a little larger). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

function tokens(pointer: string): string[] {
  if (pointer === '' || !pointer.startsWith('/')) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function nodeStart(document: Document, path: string[]): number | undefined {
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as
      | { range?: [number, number, number] }
      | undefined;
    if (node?.range !== undefined) return node.range[0];
  }
  return undefined;
}

/**
 * Reads and parses `path`.
 *
 * @throws {@link CliError} (usage, exit 2) when the file cannot be read or is not JSON or YAML,
 *   naming the line and column of the first syntax error.
 */
export async function readScenarioFile(path: string): Promise<ScenarioFile> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_FILE_BYTES) {
      throw new CliError(
        `${path} is larger than ${MAX_FILE_BYTES} bytes; a scenario document is at most 1 MiB of JSON.`,
        ExitCode.Usage,
      );
    }
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      ExitCode.Usage,
    );
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const [first] = document.errors;
  if (first !== undefined) {
    const at = first.linePos?.[0];
    throw new CliError(
      `${path}${at === undefined ? '' : `:${at.line}:${at.col}`}: not a JSON or YAML document: ${first.message.split('\n')[0]}`,
      ExitCode.Usage,
    );
  }
  // The default alias limit of `yaml` keeps a document of aliases from growing without bound.
  const value = document.toJS() as unknown;
  return {
    path,
    value,
    positionOf: (pointer) => {
      const offset = nodeStart(document, tokens(pointer));
      return offset === undefined ? { line: 1, col: 1 } : lines.linePos(offset);
    },
  };
}
